import type { AccountMe } from '@svc/contracts';
import type { AccountOwnView, AccountSummary, Principal } from '@svc/core';

/** GET /v1/me: the account, and for a session the CSRF token its writes must carry. */
export function accountMeBody(summary: AccountOwnView, principal: Principal): AccountMe {
  return {
    id: summary.id,
    plan: summary.plan,
    status: summary.status,
    email: summary.email,
    balances: balancesBody(summary),
    reserved: summary.reserved,
    overage_this_month: summary.overageThisMonth,
    provenance_key: summary.provenanceKey,
    ...(principal.kind === 'session' ? { csrf_token: principal.csrfToken } : {}),
  };
}

/** Balances by bucket, as REST answers them (GraphQL reads the same). */
export function balancesBody(summary: AccountSummary): AccountMe['balances'] {
  return {
    free_monthly: summary.balances.free_monthly,
    subscription: summary.balances.subscription,
    trial: summary.balances.trial,
    pack: summary.balances.pack,
  };
}
