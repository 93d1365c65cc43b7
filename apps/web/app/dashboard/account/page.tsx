import { freeMonthlyCredits, planTerms, showMe } from '@svc/core';
import { MonthlyCredits, monthlyAllowance } from '../../../src/dashboard/monthly-credits.tsx';
import { signInLinkCommand } from '../../../src/dashboard/paths.ts';
import { requireSession } from '../../../src/dashboard/session.ts';
import { signOut } from '../../../src/dashboard/sign-out-action.ts';
import { ActionForm } from '../../../src/dashboard/ui/action-form.tsx';
import { Badge } from '../../../src/dashboard/ui/badge.tsx';
import { Card, CardHeader, PageHeader } from '../../../src/dashboard/ui/card.tsx';
import { Field, Input } from '../../../src/dashboard/ui/field.tsx';
import { LocalDate, LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import { Notice } from '../../../src/dashboard/ui/states.tsx';
import { addEmail } from './actions.ts';

export const metadata = { title: 'Account' };

export default async function Account({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, accountId, csrfToken } = await requireSession();
  const account = await showMe(ctx, accountId);
  const justConfirmed = (await searchParams).email === 'confirmed';
  const terms = planTerms[account.plan];
  const emailConfigured = ctx.mailer !== null;
  return (
    <>
      <PageHeader title="Account" description={<>Account <span className="font-mono">{account.id}</span>, created <LocalDate value={account.createdAt} style="date" />.</>} />
      <div className="grid gap-6">
        <Card aria-labelledby="email-heading">
          <CardHeader id="email-heading" title="Email address" description="You sign in with links sent to it." />
          {justConfirmed && account.email ? <Notice className="mb-4">Your email address is confirmed.</Notice> : null}
          {account.email ? (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-mono" data-testid="account-email">
                {account.email}
              </span>
              <Badge tone="success">verified</Badge>
            </p>
          ) : !emailConfigured ? (
            <div data-testid="email-not-set-up" className="text-sm text-slate-700">
              <p className="font-medium text-slate-900">Email is not set up on this installation</p>
              <p className="mt-1">
                An address cannot be added or confirmed here, because no email can be sent. To sign in again later, ask whoever runs this installation for a sign-in link; in its checkout
                this prints one for this account:
              </p>
              <pre className="mt-2 overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100">
                <code>{signInLinkCommand(account.id)}</code>
              </pre>
            </div>
          ) : (
            <>
              <p className="mb-3 text-sm text-slate-700">
                No address yet. Add one to sign in by email{freeMonthlyCredits[account.plan] > 0 ? ` and receive ${freeMonthlyCredits[account.plan]} free credits each month` : ''}. We send a link to
                confirm it; open it in this browser while signed in.
              </p>
              <ActionForm action={addEmail} csrfToken={csrfToken} submitLabel="Send confirmation link" successMessage="Check your inbox: the confirmation link works once, for 15 minutes.">
                <Field id="new-email" label="Email address">
                  <Input id="new-email" name="email" type="email" autoComplete="email" required className="max-w-sm" />
                </Field>
              </ActionForm>
            </>
          )}
        </Card>

        <Card aria-labelledby="plan-heading">
          <CardHeader id="plan-heading" title="Plan" />
          <dl className="grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-xs font-medium text-slate-600">Current plan</dt>
              <dd className="mt-1">
                <Badge tone="info">{account.plan}</Badge>
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium text-slate-600">Monthly credits</dt>
              <dd className="mt-1 font-medium" data-testid="monthly-credits">
                <MonthlyCredits allowance={monthlyAllowance(account)} />
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium text-slate-600">Overage</dt>
              <dd className="mt-1 font-medium">{terms.overage ? 'Allowed, within each key’s cap' : 'Not available'}</dd>
            </div>
          </dl>
        </Card>

        <Card aria-labelledby="provenance-heading">
          <CardHeader
            id="provenance-heading"
            title="Provenance key"
            description="Files rendered from a template carry a data hash keyed with this key, so only you can check a file against the data it was made from."
          />
          <pre className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100">
            <code data-testid="provenance-key">{account.provenanceKey}</code>
          </pre>
          <p className="mt-2 text-sm text-slate-700">
            It is <code className="font-mono">provenance_key</code> in <code className="font-mono">GET /v1/me</code> and never changes; the{' '}
            <a className="underline" href="/docs">
              API reference
            </a>{' '}
            says there how a file is checked with it.
          </p>
        </Card>

        <Card aria-labelledby="session-heading">
          <CardHeader id="session-heading" title="Sign out" description="Ends this browser's session. Links you open later sign you in again." />
          <ActionForm action={signOut} csrfToken={csrfToken} submitLabel="Sign out of this browser" submitVariant="secondary" />
        </Card>
      </div>
    </>
  );
}
