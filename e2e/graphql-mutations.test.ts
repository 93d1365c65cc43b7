// The internal GraphQL API, actions: each mutation changes what REST and the CLI see, and
// writes one audit row; errors carry the error table's codes.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { gql, gqlData, gqlError, operatorToken } from './support/graphql.ts';

let token: string;
let tokenId: string;

beforeAll(async () => {
  token = await operatorToken('mutations');
  tokenId = (await serviceDb().operatorToken.findFirstOrThrow({ where: { name: 'mutations' }, orderBy: { createdAt: 'desc' } })).id;
});

async function auditOf(targetId: string) {
  const rows = await serviceDb().operatorAuditEntry.findMany({ where: { targetId }, orderBy: { id: 'asc' } });
  return rows.map((row) => ({ operator: row.operatorTokenId, name: row.operatorName, action: row.action, targetType: row.targetType, details: row.details }));
}

describe('GraphQL mutations', () => {
  it('suspendAccount and unsuspendAccount: the key answers 403 account_suspended, then works again; both audited', async () => {
    const account = await newAccount();
    const suspended = await gqlData('mutation ($id: ID!) { suspendAccount(id: $id) { id status suspendedAt } }', { token, variables: { id: account.accountId } });
    expect(suspended.suspendAccount).toMatchObject({ id: account.accountId, status: 'SUSPENDED' });
    expectError(await api('/v1/keys', { key: account.apiKey }), 403, 'account_suspended');
    const back = await gqlData('mutation ($id: ID!) { unsuspendAccount(id: $id) { status suspendedAt } }', { token, variables: { id: account.accountId } });
    expect(back.unsuspendAccount).toEqual({ status: 'ACTIVE', suspendedAt: null });
    expect((await api('/v1/keys', { key: account.apiKey })).status).toBe(200);
    expect(await auditOf(account.accountId)).toEqual([
      { operator: tokenId, name: 'mutations', action: 'suspendAccount', targetType: 'account', details: {} },
      { operator: tokenId, name: 'mutations', action: 'unsuspendAccount', targetType: 'account', details: {} },
    ]);
  });

  it('grantCredits adds to the bucket with a ledger entry, as GET /v1/me shows; the reason goes to the audit log', async () => {
    const account = await newAccount({ credits: 5 });
    const data = await gqlData('mutation ($id: ID!) { grantCredits(accountId: $id, bucket: PACK, amount: 30, reason: "  goodwill  ") { balances { pack trial } } }', {
      token,
      variables: { id: account.accountId },
    });
    expect(data.grantCredits.balances).toEqual({ pack: 30, trial: 5 });
    expect((await api('/v1/me', { key: account.apiKey })).body.balances.pack).toBe(30);
    const ledger = await serviceDb().creditLedgerEntry.findMany({ where: { accountId: account.accountId, kind: 'grant', source: 'pack' } });
    expect(ledger.map((entry) => entry.amount)).toEqual([30]);
    expect(await auditOf(account.accountId)).toEqual([
      { operator: tokenId, name: 'mutations', action: 'grantCredits', targetType: 'account', details: { bucket: 'pack', amount: 30, reason: 'goodwill' } },
    ]);
  });

  it('grantCredits refuses a bad amount or reason with invalid_request and details, an unknown account with not_found; nothing changes', async () => {
    const account = await newAccount({ credits: 5 });
    const grant = 'mutation ($id: ID!, $amount: Int!, $reason: String!) { grantCredits(accountId: $id, bucket: TRIAL, amount: $amount, reason: $reason) { id } }';
    const zero = await gqlError(grant, { token, variables: { id: account.accountId, amount: 0, reason: 'x' } }, 'invalid_request');
    expect(zero.message).toBe('The request is not valid. See details for the fields to fix.');
    expect(zero.extensions.details).toEqual([{ field: 'amount', reason: 'invalid value' }]);
    const blank = await gqlError(grant, { token, variables: { id: account.accountId, amount: 1, reason: '   ' } }, 'invalid_request');
    expect(blank.extensions.details).toEqual([{ field: 'reason', reason: 'invalid value' }]);
    const missing = await gqlError(grant, { token, variables: { id: 'acct_00000000000000000000000000000000', amount: 1, reason: 'x' } }, 'not_found');
    expect(missing).toMatchObject({ message: 'The resource was not found.', path: ['grantCredits'], extensions: { status: 404 } });
    expect(missing.extensions.request_id).toEqual(expect.any(String));
    expect((await api('/v1/me', { key: account.apiKey })).body.balances.trial).toBe(5);
    expect(await auditOf(account.accountId)).toEqual([]);
  });

  it('changePlan moves the account, as GET /v1/me shows; the audit row names both plans', async () => {
    const account = await newAccount({ plan: 'starter' });
    const data = await gqlData('mutation ($id: ID!, $plan: Plan!) { changePlan(accountId: $id, plan: $plan) { plan } }', { token, variables: { id: account.accountId, plan: 'SCALE' } });
    expect(data.changePlan.plan).toBe('SCALE');
    // the service's own spelling is not a value of the enum
    await gqlError('mutation ($id: ID!) { changePlan(accountId: $id, plan: scale) { plan } }', { token, variables: { id: account.accountId } }, 'invalid_request');
    expect((await api('/v1/me', { key: account.apiKey })).body.plan).toBe('scale');
    expect((await auditOf(account.accountId))[0]).toMatchObject({ action: 'changePlan', details: { from: 'starter', to: 'scale' } });
  });

  it('revokeApiKey: the key answers 401 from then on; GET /v1/keys shows it revoked', async () => {
    const account = await newAccount();
    const second = (await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'spare' } })).body;
    const data = await gqlData('mutation ($id: ID!) { revokeApiKey(id: $id) { id status revokedAt } }', { token, variables: { id: second.id } });
    expect(data.revokeApiKey).toMatchObject({ id: second.id, status: 'REVOKED' });
    expectError(await api('/v1/keys', { key: second.secret }), 401, 'unauthorized');
    const listed = (await api('/v1/keys', { key: account.apiKey })).body.data.find((key: any) => key.id === second.id);
    expect(listed).toMatchObject({ status: 'revoked', revoked_at: data.revokeApiKey.revokedAt });
    expect(await auditOf(second.id)).toEqual([{ operator: tokenId, name: 'mutations', action: 'revokeApiKey', targetType: 'api_key', details: { account_id: account.accountId } }]);
    await gqlError('mutation { revokeApiKey(id: "key_00000000000000000000000000000000") { id } }', { token }, 'not_found');
  });

  it('disableWebhook and replayWebhook act as the REST routes do', async () => {
    const account = await newAccount();
    const hook = (await api('/v1/webhooks', { method: 'POST', key: account.apiKey, body: { url: 'https://93.184.215.14/hooks' } })).body;
    const replay = await gqlData('mutation ($id: ID!) { replayWebhook(id: $id) { replayed webhook { id status } } }', { token, variables: { id: hook.id } });
    expect(replay.replayWebhook).toEqual({ replayed: 0, webhook: { id: hook.id, status: 'ENABLED' } });
    const disabled = await gqlData('mutation ($id: ID!) { disableWebhook(id: $id) { status disabledReason } }', { token, variables: { id: hook.id } });
    expect(disabled.disableWebhook).toEqual({ status: 'DISABLED', disabledReason: 'OWNER_REQUEST' });
    expect((await api(`/v1/webhooks/${hook.id}`, { key: account.apiKey })).body).toMatchObject({ status: 'disabled', disabled_reason: 'owner_request' });
    expect((await auditOf(hook.id)).map((row) => row.action)).toEqual(['replayWebhook', 'disableWebhook']);
    const log = await gqlData('query ($id: ID!) { auditLog(targetId: $id) { edges { node { action targetType } } } }', { token, variables: { id: hook.id } });
    expect(log.auditLog.edges.map((edge: any) => edge.node)).toEqual([
      { action: 'DISABLE_WEBHOOK', targetType: 'WEBHOOK' },
      { action: 'REPLAY_WEBHOOK', targetType: 'WEBHOOK' },
    ]);
  });

  it('retryRenderJob: a failed job only, once; the new job is admitted and billed like a REST render', async () => {
    const account = await newAccount({ credits: 3 });
    const ok = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>fine</p>' } });
    const failed = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: '<img src="https://example.com/x.png">', image: { format: 'png' } } });
    expect(failed.body).toMatchObject({ status: 'failed', credit: 'released' });
    const retry = 'mutation ($id: ID!) { retryRenderJob(id: $id) { id kind status retryOf keyId accountId } }';
    await gqlError(retry, { token, variables: { id: ok.body.id } }, 'operation_conflict');

    const retried = (await gqlData(retry, { token, variables: { id: failed.body.id } })).retryRenderJob;
    expect(retried).toMatchObject({ kind: 'IMAGE', retryOf: failed.body.id, accountId: account.accountId });
    expect(retried.id).not.toBe(failed.body.id);
    // asking again answers the same job and charges nothing more
    expect((await gqlData(retry, { token, variables: { id: failed.body.id } })).retryRenderJob.id).toBe(retried.id);
    // the customer sees it in history; it fails as the original did and its credit is released
    let job: any;
    for (let waited = 0; waited < 60 && (!job || job.status === 'queued' || job.status === 'running'); waited++) {
      job = (await api(`/v1/image/${retried.id}`, { key: account.apiKey })).body;
      if (job.status === 'queued' || job.status === 'running') await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(job).toMatchObject({ status: 'failed', credit: 'released', error: failed.body.error });
    const ledger = await serviceDb().creditLedgerEntry.findMany({ where: { jobId: retried.id }, orderBy: { id: 'asc' } });
    expect(ledger.map((entry) => [entry.kind, entry.amount])).toEqual([['reserve', 1], ['release', 1]]);
    expect((await api('/v1/me', { key: account.apiKey })).body.balances.trial).toBe(2);
    expect(await auditOf(failed.body.id)).toEqual([
      { operator: tokenId, name: 'mutations', action: 'retryRenderJob', targetType: 'render_job', details: { account_id: account.accountId, retry_job_id: retried.id } },
      { operator: tokenId, name: 'mutations', action: 'retryRenderJob', targetType: 'render_job', details: { account_id: account.accountId, retry_job_id: retried.id } },
    ]);
  }, 90_000);

  it('retryRenderJob follows the admission rules: 402 without credits, 403 for a suspended account', async () => {
    const account = await newAccount({ plan: 'pack', credits: 1 });
    const failed = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: '<img src="https://example.com/x.png">', image: { format: 'png' } } });
    await serviceDb().creditBalance.updateMany({ where: { accountId: account.accountId }, data: { balance: 0 } });
    const retry = 'mutation ($id: ID!) { retryRenderJob(id: $id) { id } }';
    const refused = await gqlError(retry, { token, variables: { id: failed.body.id } }, 'insufficient_credits');
    expect(refused.extensions.status).toBe(402);
    await gqlData('mutation ($id: ID!) { suspendAccount(id: $id) { id } }', { token, variables: { id: account.accountId } });
    await gqlError(retry, { token, variables: { id: failed.body.id } }, 'account_suspended');
    expect(await serviceDb().renderJob.count({ where: { retryOf: failed.body.id } })).toBe(0);
  });

  it('markTestimonialReviewed takes it off the pending list; repeating keeps the first review', async () => {
    const id = crypto.randomUUID();
    await serviceDb().testimonial.create({ data: { id, name: 'N', company: 'C', quote: 'Q', clientAddress: '192.0.2.1', createdAt: new Date(Date.now() + 120_000) } });
    const mark = 'mutation ($id: ID!) { markTestimonialReviewed(id: $id) { id reviewedAt } }';
    const first = (await gqlData(mark, { token, variables: { id } })).markTestimonialReviewed;
    expect(first.reviewedAt).toEqual(expect.any(String));
    expect((await gqlData(mark, { token, variables: { id } })).markTestimonialReviewed.reviewedAt).toBe(first.reviewedAt);
    const pending = await gqlData('query { testimonials(first: 100) { edges { node { id } } } }', { token });
    expect(pending.testimonials.edges.map((edge: any) => edge.node.id)).not.toContain(id);
    expect((await auditOf(id)).map((row) => row.action)).toEqual(['markTestimonialReviewed', 'markTestimonialReviewed']);
    await gqlError('mutation { markTestimonialReviewed(id: "nope") { id } }', { token }, 'not_found');
  });

  it('auditLog reads the actions on one object, newest first, paged', async () => {
    const account = await newAccount();
    for (const action of ['suspendAccount', 'unsuspendAccount', 'suspendAccount']) {
      await gqlData(`mutation ($id: ID!) { ${action}(id: $id) { id } }`, { token, variables: { id: account.accountId } });
    }
    const read = 'query ($id: ID!, $after: String) { auditLog(targetId: $id, first: 2, after: $after) { edges { node { operatorTokenId operatorName action targetType targetId details createdAt } } pageInfo { hasNextPage endCursor } } }';
    const first = (await gqlData(read, { token, variables: { id: account.accountId } })).auditLog;
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await gqlData(read, { token, variables: { id: account.accountId, after: first.pageInfo.endCursor } })).auditLog;
    expect(second.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    const nodes = [...first.edges, ...second.edges].map((edge: any) => edge.node);
    expect(nodes.map((node: any) => node.action)).toEqual(['SUSPEND_ACCOUNT', 'UNSUSPEND_ACCOUNT', 'SUSPEND_ACCOUNT']);
    expect(nodes[0]).toMatchObject({ operatorTokenId: tokenId, operatorName: 'mutations', targetType: 'ACCOUNT', targetId: account.accountId, details: {} });
    expect(nodes[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('errors name no customer content, and an unexpected field is an invalid_request', async () => {
    const unknown = await gql('query { account(id: "x") { secretField } }', { token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0].extensions).toMatchObject({ code: 'invalid_request', graphql_code: 'GRAPHQL_VALIDATION_FAILED' });
  });
});
