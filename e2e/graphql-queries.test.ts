// The internal GraphQL API, reads: every query against the real web process and database,
// each compared with what REST answers the customer for the same object.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, newAccount, serviceDb, type TestAccount } from './support/api.ts';
import { camel, gqlData, operatorToken, upper } from './support/graphql.ts';
import { createGroup, newTemplate, settled } from './support/groups.ts';
import { png } from './support/images.ts';

let token: string;
let account: TestAccount;

beforeAll(async () => {
  token = await operatorToken('queries');
  account = await newAccount({ plan: 'growth', credits: 40 });
});

const accountFields = `id plan status email createdAt suspendedAt reserved overageThisMonth
  balances { freeMonthly subscription trial pack }
  keys { id accountId name displayPrefix status createdAt revokedAt lastUsedAt monthlyOverageCap }`;
const jobFields = `id kind accountId keyId reference status credit createdAt startedAt finishedAt attempts removedFromHistory retryOf
  template { id version } artifact { mediaType byteSize sha256 expiresAt removedReason } error { category code }`;

/**
 * The REST job without its download link, in GraphQL's names and enum values (REST omits a
 * job's absent reference; GraphQL answers null).
 */
function restJob(body: Record<string, any>) {
  const { download: _download, template, artifact, error, ...rest } = body;
  return {
    ...camel(rest),
    status: upper(rest.status),
    credit: upper(rest.credit),
    reference: rest.reference ?? null,
    template,
    artifact: artifact && { ...camel(artifact), mediaType: upper(artifact.media_type), removedReason: upper(artifact.removed_reason) },
    error: error && { category: upper(error.category), code: error.code },
  };
}

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GraphQL queries', () => {
  it('account: balances, reserved and overage as GET /v1/me, keys as GET /v1/keys', async () => {
    await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'second' } });
    const me = (await api('/v1/me', { key: account.apiKey })).body;
    const keys = (await api('/v1/keys', { key: account.apiKey })).body.data;
    const data = await gqlData(`query ($id: ID!) { account(id: $id) { ${accountFields} } }`, { token, variables: { id: account.accountId } });
    const { balances, keys: gotKeys, createdAt, suspendedAt, ...rest } = data.account;
    expect(rest).toEqual({ id: me.id, plan: 'GROWTH', status: 'ACTIVE', email: me.email, reserved: me.reserved, overageThisMonth: me.overage_this_month });
    expect(balances).toEqual(camel(me.balances));
    expect(gotKeys.map(({ accountId, ...key }: any) => key)).toEqual(keys.map((key: any) => ({ ...camel(key), status: upper(key.status) })));
    expect(gotKeys.map((key: any) => key.status)).toEqual(['ACTIVE', 'ACTIVE']);
    expect(gotKeys.every((key: any) => key.accountId === account.accountId)).toBe(true);
    expect(typeof createdAt).toBe('string');
    expect(suspendedAt).toBeNull();
  });

  it('account: an unknown id answers null', async () => {
    const data = await gqlData('query { account(id: "acct_00000000000000000000000000000000") { id } }', { token });
    expect(data.account).toBeNull();
  });

  it('accounts: found by id, by a key prefix and by a whole key; filtered by plan and status; paged with cursors', async () => {
    const query = `query ($search: String, $plan: Plan, $status: AccountStatus, $first: Int!, $after: String) {
      accounts(search: $search, plan: $plan, status: $status, first: $first, after: $after) { edges { cursor node { id plan status } } pageInfo { hasNextPage endCursor } } }`;
    const byId = await gqlData(query, { token, variables: { search: account.accountId, first: 5 } });
    expect(byId.accounts.edges.map((edge: any) => edge.node.id)).toEqual([account.accountId]);
    const byKey = await gqlData(query, { token, variables: { search: account.apiKey, first: 5 } });
    expect(byKey.accounts.edges.map((edge: any) => edge.node.id)).toEqual([account.accountId]);
    const byPrefix = await gqlData(query, { token, variables: { search: account.apiKey.slice(0, 14), first: 100 } });
    expect(byPrefix.accounts.edges.map((edge: any) => edge.node.id)).toContain(account.accountId);
    const wrongPlan = await gqlData(query, { token, variables: { search: account.accountId, plan: 'FREE', first: 5 } });
    expect(wrongPlan.accounts.edges).toEqual([]);
    const rightPlan = await gqlData(query, { token, variables: { search: account.accountId, plan: 'GROWTH', status: 'ACTIVE', first: 5 } });
    expect(rightPlan.accounts.edges.map((edge: any) => edge.node)).toEqual([{ id: account.accountId, plan: 'GROWTH', status: 'ACTIVE' }]);
    const suspended = await gqlData(query, { token, variables: { search: account.accountId, status: 'SUSPENDED', first: 5 } });
    expect(suspended.accounts.edges).toEqual([]);

    // three growth accounts of this test, paged two at a time: every account once, newest first
    const mine = [account.accountId, (await newAccount({ plan: 'growth' })).accountId, (await newAccount({ plan: 'growth' })).accountId];
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const data: any = await gqlData(query, { token, variables: { plan: 'GROWTH', first: 2, after } });
      seen.push(...data.accounts.edges.map((edge: any) => edge.node.id));
      expect(data.accounts.edges.every((edge: any) => edge.node.plan === 'GROWTH')).toBe(true);
      if (!data.accounts.pageInfo.hasNextPage) break;
      after = data.accounts.pageInfo.endCursor;
      expect(after).toBe(data.accounts.edges.at(-1).cursor);
    }
    expect(new Set(seen).size).toBe(seen.length);
    const positions = mine.map((id) => seen.indexOf(id));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => b - a)).toEqual(positions);
  });

  it('renderJob and renderJobs: the values of GET /v1/pdf/{id} and /v1/image/{id}; filters by account, status, category, kind and time', async () => {
    const pdf = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>ok</p>', reference: 'inv-1' } });
    expect(pdf.body.status).toBe('succeeded');
    const failed = await api('/v1/image', { method: 'POST', key: account.apiKey, body: { html: '<img src="https://example.com/x.png">', image: { format: 'png' } } });
    expect(failed.body.status).toBe('failed');

    for (const [path, body] of [[`/v1/pdf/${pdf.body.id}`, pdf.body], [`/v1/image/${failed.body.id}`, failed.body]] as const) {
      const rest = (await api(path, { key: account.apiKey })).body;
      const data = await gqlData(`query ($id: ID!) { renderJob(id: $id) { ${jobFields} account { id } } }`, { token, variables: { id: body.id } });
      const { kind, accountId, keyId, startedAt, attempts, removedFromHistory, retryOf, account: owner, ...shared } = data.renderJob;
      expect(shared).toEqual(restJob(rest));
      expect({ kind, accountId, owner, removedFromHistory, retryOf }).toEqual({
        kind: body.id.startsWith('pdf_') ? 'PDF' : 'IMAGE',
        accountId: account.accountId,
        owner: { id: account.accountId },
        removedFromHistory: false,
        retryOf: null,
      });
      expect(keyId).toMatch(/^key_/);
      expect(attempts).toBeGreaterThanOrEqual(1);
      expect(startedAt).toMatch(isoTimestamp);
    }
    const artifact = (await gqlData('query ($id: ID!) { renderJob(id: $id) { status credit artifact { mediaType expiresAt removedReason } } }', { token, variables: { id: pdf.body.id } })).renderJob;
    expect(artifact).toEqual({ status: 'SUCCEEDED', credit: 'SETTLED', artifact: { mediaType: 'APPLICATION_PDF', expiresAt: pdf.body.artifact.expires_at, removedReason: null } });
    expect(artifact.artifact.expiresAt).toMatch(isoTimestamp);
    const error = (await gqlData('query ($id: ID!) { renderJob(id: $id) { status error { category code } } }', { token, variables: { id: failed.body.id } })).renderJob;
    expect(error).toEqual({ status: 'FAILED', error: { category: upper(failed.body.error.category), code: failed.body.error.code } });
    expect(error.error.category).toMatch(/^[A-Z_]+$/);
    // the render report, as REST answers it
    for (const [path, body] of [[`/v1/pdf/${pdf.body.id}/report`, pdf.body], [`/v1/image/${failed.body.id}/report`, failed.body]] as const) {
      const rest = await api(path, { key: account.apiKey });
      expect(rest.status).toBe(200);
      const { report } = (await gqlData('query ($id: ID!) { renderJob(id: $id) { report } }', { token, variables: { id: body.id } })).renderJob;
      expect(report).toEqual(rest.body);
    }

    const list = `query ($filter: RenderJobFilter) { renderJobs(filter: $filter, first: 100) { edges { node { id } } pageInfo { hasNextPage } } }`;
    const ids = async (filter: Record<string, unknown>) => (await gqlData(list, { token, variables: { filter } })).renderJobs.edges.map((edge: any) => edge.node.id);
    expect(await ids({ accountId: account.accountId })).toEqual([failed.body.id, pdf.body.id]);
    expect(await ids({ accountId: account.accountId, status: 'FAILED' })).toEqual([failed.body.id]);
    expect(await ids({ accountId: account.accountId, errorCategory: upper(failed.body.error.category) })).toEqual([failed.body.id]);
    expect(await ids({ accountId: account.accountId, errorCategory: failed.body.error.category === 'timeout' ? 'RENDERER_FAILURE' : 'TIMEOUT' })).toEqual([]);
    expect(await ids({ accountId: account.accountId, kind: 'PDF' })).toEqual([pdf.body.id]);
    expect(await ids({ accountId: account.accountId, kind: 'IMAGE', status: 'FAILED' })).toEqual([failed.body.id]);
    expect(await ids({ accountId: account.accountId, createdFrom: failed.body.created_at })).toEqual([failed.body.id]);
    expect(await ids({ accountId: account.accountId, createdBefore: failed.body.created_at })).toEqual([pdf.body.id]);
    expect((await gqlData('query { renderJob(id: "pdf_00000000000000000000000000000000") { id } }', { token })).renderJob).toBeNull();

    const recent = await gqlData(`query ($id: ID!) { account(id: $id) { recentJobs(first: 1) { id } } }`, { token, variables: { id: account.accountId } });
    expect(recent.account.recentJobs).toEqual([{ id: failed.body.id }]);
  });

  it('template with its versions, brandKit and webhook with its delivery log: the values REST answers', async () => {
    const template = (await api('/v1/templates', { method: 'POST', key: account.apiKey, body: { source: '<h1>{{ name }}</h1>', name: 'Invoice', tags: ['a'] } })).body;
    await api(`/v1/templates/${template.id}/versions`, { method: 'POST', key: account.apiKey, body: { source: '<h2>{{ name }}</h2>' } });
    expect((await api(`/v1/templates/${template.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(200);
    expect((await api(`/v1/templates/${template.id}`, { method: 'PATCH', key: account.apiKey, body: { archived_at: null } })).status).toBe(200);
    const restTemplate = (await api(`/v1/templates/${template.id}`, { key: account.apiKey })).body;
    const restVersion1 = (await api(`/v1/templates/${template.id}/versions/1`, { key: account.apiKey })).body;
    const gotTemplate = (
      await gqlData(`query ($id: ID!) { template(id: $id) { id accountId name tags createdAt archivedAt latestVersion archiveHistory { archivedAt restoredAt } versions { version createdAt source schema sizes } } }`, {
        token,
        variables: { id: template.id },
      })
    ).template;
    expect(gotTemplate).toMatchObject({ id: restTemplate.id, accountId: account.accountId, name: restTemplate.name, tags: restTemplate.tags, createdAt: restTemplate.created_at, archivedAt: null, latestVersion: 2 });
    expect(gotTemplate.archiveHistory).toEqual(restTemplate.archive_history.map(camel));
    expect(gotTemplate.archiveHistory).toEqual([{ archivedAt: expect.stringMatching(isoTimestamp), restoredAt: expect.stringMatching(isoTimestamp) }]);
    expect(gotTemplate.versions.map((version: any) => version.version)).toEqual([2, 1]);
    expect(gotTemplate.versions[0]).toMatchObject({ source: restTemplate.source, schema: restTemplate.schema, sizes: restTemplate.sizes });
    expect(gotTemplate.versions[1]).toEqual({ version: 1, createdAt: restVersion1.created_at, source: restVersion1.source, schema: restVersion1.schema, sizes: restVersion1.sizes });

    const kit = (await api('/v1/brand-kits', { method: 'POST', key: account.apiKey, body: { name: 'Acme', colours: ['#112233'] } })).body;
    const logo = await fetch(`${baseUrl()}/v1/brand-kits/${kit.id}/assets`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'image/png' }, body: new Uint8Array(await png(40, 30)) });
    expect(logo.status, await logo.clone().text()).toBe(201);
    expect((await api(`/v1/brand-kits/${kit.id}`, { method: 'DELETE', key: account.apiKey })).status).toBe(204);
    const restKit = (await api(`/v1/brand-kits/${kit.id}`, { key: account.apiKey })).body;
    const gotKit = (
      await gqlData(`query ($id: ID!) { brandKit(id: $id) { id accountId name colours toneGuidance createdAt updatedAt archivedAt assets { id kind mediaType byteSize createdAt } archiveHistory { archivedAt restoredAt } } }`, {
        token,
        variables: { id: kit.id },
      })
    ).brandKit;
    expect(gotKit).toEqual({
      ...camel(restKit),
      accountId: account.accountId,
      assets: restKit.assets.map((asset: any) => ({ ...camel(asset), kind: upper(asset.kind), mediaType: upper(asset.media_type) })),
      archiveHistory: restKit.archive_history.map(camel),
    });
    expect(gotKit.assets).toEqual([{ id: expect.any(String), kind: 'LOGO', mediaType: 'IMAGE_PNG', byteSize: expect.any(Number), createdAt: expect.stringMatching(isoTimestamp) }]);
    expect(gotKit.archiveHistory).toEqual([{ archivedAt: gotKit.archivedAt, restoredAt: null }]);
    expect(gotKit.archivedAt).toMatch(isoTimestamp);

    const hook = (await api('/v1/webhooks', { method: 'POST', key: account.apiKey, body: { url: 'https://93.184.215.14/hooks' } })).body;
    await api(`/v1/webhooks/${hook.id}/test`, { method: 'POST', key: account.apiKey });
    expect((await api(`/v1/webhooks/${hook.id}/rotate`, { method: 'POST', key: account.apiKey })).status).toBe(200);
    const restHook = (await api(`/v1/webhooks/${hook.id}`, { key: account.apiKey })).body;
    const restLog = (await api(`/v1/webhooks/${hook.id}/deliveries`, { key: account.apiKey })).body.data;
    const gotHook = (
      await gqlData(`query ($id: ID!) { webhook(id: $id) { id accountId url events status disabledReason displayPrefix lastDeliveryAt failureCount createdAt previousSecretExpiresAt deliveries { id event createdAt statusCode isTest retryCount } } }`, {
        token,
        variables: { id: hook.id },
      })
    ).webhook;
    const { deliveries, accountId, ...hookFields } = gotHook;
    expect(hookFields).toEqual({ ...camel(restHook), events: restHook.events.map(upper), status: upper(restHook.status), disabledReason: upper(restHook.disabled_reason) });
    expect(hookFields).toMatchObject({ events: ['RENDER_CANCELLED', 'RENDER_FAILED', 'RENDER_SUCCEEDED'], status: 'ENABLED', disabledReason: null, previousSecretExpiresAt: expect.stringMatching(isoTimestamp) });
    expect(accountId).toBe(account.accountId);
    expect(deliveries).toEqual(restLog.map((entry: any) => ({ ...camel(entry), event: upper(entry.event) })));
    expect(deliveries.length).toBeGreaterThan(0);
    for (const delivery of deliveries) {
      expect(delivery.event).toMatch(/^RENDER_(CANCELLED|FAILED|SUCCEEDED)$/);
      expect(delivery.createdAt).toMatch(isoTimestamp);
    }

    for (const [field, id] of [['template', 'tpl_'], ['brandKit', 'kit_'], ['webhook', 'wh_']] as const) {
      expect((await gqlData(`query { ${field}(id: "${id}${'0'.repeat(32)}") { id } }`, { token }))[field]).toBeNull();
    }
  });

  it('group: a batch with the state, row states and error codes of GET /v1/batches/{id}, members as render jobs', async () => {
    // the second row reaches for the network, which fails its render
    const source = '{% if fail %}<img src="http://127.0.0.1:9/pixel.png">{% endif %}<h1>Row {{ name }}</h1>';
    const template = await newTemplate(account.apiKey, { name: 'Rows', source });
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'a' }, { name: 'b', fail: true }] });
    expect(created.status).toBe(201);
    const batch = await settled('batches', account.apiKey, created.body.id);
    const data = await gqlData(
      `query ($id: ID!) { group(id: $id) { id kind accountId templateId version format state createdAt cancelledAt
        members { position pageOrSizeId state errorCode job { id status accountId } } } }`,
      { token, variables: { id: batch.id } },
    );
    const group = data.group;
    expect(group).toMatchObject({ id: batch.id, kind: 'BATCH', accountId: account.accountId, templateId: batch.template_id, version: batch.version, format: 'PDF', state: upper(batch.state), createdAt: batch.created_at, cancelledAt: null });
    expect(group.state).toBe('PARTIAL');
    expect(group.members.map((member: any) => [member.position, member.state, member.errorCode])).toEqual(
      batch.rows.map((row: any) => [row.position, upper(row.state), row.error?.code ?? null]),
    );
    expect(group.members.map((member: any) => member.state)).toEqual(['SUCCEEDED', 'FAILED']);
    for (const member of group.members) {
      expect(member.pageOrSizeId).toBeNull();
      expect(member.job.accountId).toBe(account.accountId);
      expect(upper((await api(`/v1/pdf/${member.job.id}`, { key: account.apiKey })).body.status)).toBe(member.job.status);
    }
    for (const id of [`batch_${'0'.repeat(32)}`, 'not-an-id']) expect((await gqlData('query ($id: ID!) { group(id: $id) { id } }', { token, variables: { id } })).group).toBeNull();
  });

  it('testimonials lists the ones pending review, newest first', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [index, id] of ids.entries()) {
      await serviceDb().testimonial.create({ data: { id, name: `N${index}`, company: 'C', quote: 'Q', clientAddress: '192.0.2.1', createdAt: new Date(Date.now() + 60_000 + index) } });
    }
    const data = await gqlData('query { testimonials(first: 2) { edges { node { id name company quote createdAt reviewedAt } } pageInfo { hasNextPage } } }', { token });
    expect(data.testimonials.edges.map((edge: any) => edge.node.id)).toEqual([ids[1], ids[0]]);
    expect(data.testimonials.edges[0].node).toMatchObject({ name: 'N1', company: 'C', quote: 'Q', reviewedAt: null });
  });

  it('serviceStatus: backlog, workers seen, failures of the last hour by category, uptime', async () => {
    const data = await gqlData('query { serviceStatus { status backlog running workersSeen browserRestarts finishedLastHour failureRates { category failed rate } uptimePercent uptimeDays } }', { token });
    const status = data.serviceStatus;
    expect(status.workersSeen).toBeGreaterThanOrEqual(1);
    expect(status.backlog).toBeGreaterThanOrEqual(0);
    expect(status.browserRestarts).toBeGreaterThanOrEqual(0);
    const [failedHour] = await serviceDb().$queryRaw<{ finished: number }[]>`
      SELECT count(*)::int AS finished FROM render_jobs WHERE status IN ('succeeded', 'failed') AND finished_at >= now() - interval '1 hour'`;
    expect(status.finishedLastHour).toBeLessThanOrEqual(failedHour!.finished);
    expect(status.finishedLastHour).toBeGreaterThan(0);
    for (const rate of status.failureRates) expect(rate.rate).toBeCloseTo(rate.failed / status.finishedLastHour, 6);
    // earlier tests of this file failed a render for an unsafe address: its category is counted, by its enum name
    expect(status.failureRates.map((rate: any) => rate.category)).toContain(upper((await api(`/v1/image`, { key: account.apiKey })).body.items.find((job: any) => job.status === 'failed').error.category));
    for (const rate of status.failureRates) expect(['INVALID_INPUT', 'UNSAFE_ASSET', 'RESOURCE_LIMIT', 'TIMEOUT', 'RENDERER_FAILURE', 'INTERNAL_FAILURE']).toContain(rate.category);
    expect(['OPERATIONAL', 'DEGRADED', 'DOWNTIME', 'MAINTENANCE']).toContain(status.status);
  });
});
