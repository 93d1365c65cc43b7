// Batches (the contract's groups, their lifecycle and routes, and the Groups limits): one normal render job per data row, admitted as
// concurrency allows, with retry, cancel and a streamed ZIP of the succeeded files.
import { archiveLinkTokens, signLinkToken } from '../packages/core/src/shared/link-token.ts';
import { signingSecret } from '../packages/core/src/settings/signing-secret.ts';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceContext, serviceDb } from './support/api.ts';
import { pdfText } from './support/files.ts';
import { createGroup, fetchArchive, newTemplate, settled, unzip } from './support/groups.ts';
import { securitySuite } from './support/security.ts';
import { until } from './support/until.ts';

const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, fail: { type: 'boolean' } } };
// a row with fail: true reaches for the network, which fails its render (unsafe_asset)
const source = '{% if fail %}<img src="http://127.0.0.1:9/pixel.png">{% endif %}<h1>Invoice for {{ name }}</h1>';

const balance = async (accountId: string) => (await serviceDb().creditBalance.findFirst({ where: { accountId, bucket: 'trial' } }))?.balance;
const ledgerKinds = async (jobId: string) => (await serviceDb().creditLedgerEntry.findMany({ where: { jobId }, orderBy: { id: 'asc' } })).map((entry) => entry.kind);

describe('batches', () => {
  it('renders one PDF job per row, charges one credit per row and archives the files in order', async () => {
    const account = await newAccount({ plan: 'starter', credits: 10 });
    const template = await newTemplate(account.apiKey, { name: 'Invoice', source, schema });
    const rows = [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }];
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ template_id: template.id, version: 1, format: 'pdf', quoted_credits: 3 });
    expect(created.body.id).toMatch(/^batch_[0-9a-f]{32}$/);
    expect(['queued', 'running']).toContain(created.body.state);

    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(batch.state).toBe('complete');
    expect(batch.rows.map((row: { position: number; state: string; error: unknown }) => [row.position, row.state, row.error])).toEqual([
      [0, 'succeeded', null],
      [1, 'succeeded', null],
      [2, 'succeeded', null],
    ]);
    expect(await balance(account.accountId)).toBe(7);

    // every row is a normal render job: readable, in history, settled once, with its own event
    const jobs = await serviceDb().renderJob.findMany({ where: { groupId: batch.id }, orderBy: { createdAt: 'asc' } });
    expect(jobs).toHaveLength(3);
    for (const job of jobs) {
      expect(job.id).toMatch(/^pdf_/);
      const read = await api(`/v1/pdf/${job.id}`, { key: account.apiKey });
      expect(read.body).toMatchObject({ status: 'succeeded', credit: 'settled', template: { id: template.id, version: 1 } });
      expect(await ledgerKinds(job.id)).toEqual(['reserve', 'settle']);
      expect(await serviceDb().renderEvent.count({ where: { jobId: job.id, type: 'render.succeeded' } })).toBe(1);
    }
    const row1 = await fetch(batch.rows[1].download_url);
    expect(pdfText(Buffer.from(await row1.arrayBuffer()))).toContain('Invoice for Bob');

    const archive = await fetchArchive(batch.archive_url);
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/zip');
    const entries = await unzip(archive.bytes);
    expect(entries.map((entry) => entry.name)).toEqual(['001.pdf', '002.pdf', '003.pdf', 'manifest.json']);
    expect(pdfText(entries[0]!.bytes)).toContain('Invoice for Ann');
    expect(pdfText(entries[2]!.bytes)).toContain('Invoice for Cy');
    const manifest = JSON.parse(entries[3]!.bytes.toString('utf8'));
    expect(manifest).toMatchObject({ kind: 'batch', id: batch.id, state: 'complete' });
    expect(manifest.members.map((member: { file: string }) => member.file)).toEqual(['001.pdf', '002.pdf', '003.pdf']);
    expect(JSON.stringify(manifest)).not.toContain('Ann');

    // GET never starts billed work
    await api(`/v1/batches/${batch.id}`, { key: account.apiKey });
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(3);
  });

  it('needs an Idempotency-Key, replays the same key and body, and refuses another body under the key', async () => {
    const account = await newAccount();
    const template = await newTemplate(account.apiKey, { source, schema });
    const body = { template_id: template.id, format: 'png', rows: [{ name: 'Ann' }] };
    const missing = await createGroup('batches', account.apiKey, body, null);
    expect(expectError(missing, 400, 'invalid_request').details).toEqual([{ field: 'Idempotency-Key', reason: 'missing field' }]);

    const first = await createGroup('batches', account.apiKey, body, 'batch-key-1');
    expect(first.status).toBe(201);
    const replay = await createGroup('batches', account.apiKey, body, 'batch-key-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expectError(await createGroup('batches', account.apiKey, { ...body, rows: [{ name: 'Bob' }] }, 'batch-key-1'), 409, 'idempotency_conflict');
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(1);
    const image = await settled('batches', account.apiKey, first.body.id);
    expect(image.rows[0].state).toBe('succeeded');
    const job = await serviceDb().renderJob.findFirstOrThrow({ where: { groupId: first.body.id } });
    expect(job.id).toMatch(/^image_/);
  });

  it('validates every row against the schema before any job exists, charging nothing', async () => {
    const account = await newAccount({ plan: 'starter', credits: 5 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const rows = [{ name: 'Ann' }, { name: '' }, { name: 'Cy' }, {}];
    const refused = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows });
    expect(expectError(refused, 400, 'template_data_invalid').details).toEqual([
      { field: 'rows.1/name', reason: 'Add a value.' },
      { field: 'rows.3/name', reason: 'A required value is missing.' },
    ]);
    const evaluation = await newTemplate(account.apiKey, { source: '<p>{{ missing.value }}</p>' });
    const failed = await createGroup('batches', account.apiKey, { template_id: evaluation.id, format: 'pdf', rows: [{}] });
    expect(expectError(failed, 400, 'template_missing_data').details?.[0]).toMatchObject({ field: 'template_id', line: 1 });
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await balance(account.accountId)).toBe(5);
    expectError(await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [] }), 400, 'invalid_request');
    expectError(await createGroup('batches', account.apiKey, { template_id: template.id, format: 'gif', rows: [{ name: 'A' }] }), 400, 'invalid_request');
    expectError(
      await createGroup('batches', account.apiKey, { template_id: 'tpl_00000000000000000000000000000000', format: 'pdf', rows: [{ name: 'A' }] }),
      404,
      'template_not_found',
    );
  });

  it.each([
    ['free', 10],
    ['pack', 10],
    ['starter', 50],
    ['growth', 100],
  ] as const)('holds a %s batch to %i rows with error.plan_limit', async (plan, limit) => {
    const account = await newAccount({ plan, credits: 5 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const rows = Array.from({ length: limit + 1 }, (_, index) => ({ name: `n${index}` }));
    const refused = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows });
    const error: { plan_limit?: unknown; message: string } = expectError(refused, 400, 'batch_row_limit');
    expect(error.plan_limit).toEqual({ plan, limit });
    expect(error.message).not.toContain(String(limit));
    expect(await serviceDb().renderGroup.count({ where: { accountId: account.accountId } })).toBe(0);
  });

  it('admits a few rows at once and drains the rest in row order', async () => {
    const account = await newAccount({ plan: 'scale', credits: 30 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const rows = Array.from({ length: 14 }, (_, index) => ({ name: `Row ${index}` }));
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'png', rows });
    expect(created.status).toBe(201);
    // a few live member jobs per account (SVC_GROUP_CONCURRENCY): the rest wait as pending
    // (shown queued, no job, no credit yet) until the drain admits them
    expect(created.body.rows.filter((row: { state: string }) => row.state === 'queued').length).toBeGreaterThanOrEqual(11);
    const reservedAtOnce = await serviceDb().creditReservation.count({ where: { accountId: account.accountId } });
    expect(reservedAtOnce).toBeLessThan(14);
    expect(await serviceDb().renderGroupMember.count({ where: { groupId: created.body.id, state: 'pending' } })).toBeGreaterThan(0);
    // members' jobs wait in the render queue for the worker's bulk slots
    const bulk = await serviceDb().$queryRaw<{ bulk: boolean }[]>`
      SELECT bulk FROM render_queue WHERE job_id IN (SELECT id FROM render_jobs WHERE group_id = ${created.body.id})`;
    for (const entry of bulk) expect(entry.bulk).toBe(true);

    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(batch.state).toBe('complete');
    const members = await serviceDb().renderGroupMember.findMany({ where: { groupId: batch.id }, include: { job: true }, orderBy: { position: 'asc' } });
    const created_at = members.map((member) => member.job!.createdAt.getTime());
    expect(created_at).toEqual([...created_at].sort((a, b) => a - b));
    expect(await balance(account.accountId)).toBe(16);
  });

  it('retries failed rows with new jobs, leaves succeeded rows untouched and never bills them again', async () => {
    const account = await newAccount({ plan: 'starter', credits: 10 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const created = await createGroup('batches', account.apiKey, {
      template_id: template.id,
      format: 'pdf',
      rows: [{ name: 'Ann' }, { name: 'Bob', fail: true }],
    });
    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(batch.state).toBe('partial');
    expect(batch.rows[1]).toMatchObject({ state: 'failed', error: { code: expect.any(String) }, download_url: null });
    expect(batch.archive_url).toBeTruthy();
    expect(await balance(account.accountId)).toBe(9);
    const before = await serviceDb().renderGroupMember.findMany({ where: { groupId: batch.id }, orderBy: { position: 'asc' } });

    const retried = await api(`/v1/batches/${batch.id}/retry`, { method: 'POST', key: account.apiKey });
    expect(retried.status).toBe(200);
    expect(retried.body.rows[0].state).toBe('succeeded');
    const after = await settled('batches', account.apiKey, batch.id);
    expect(after.state).toBe('partial');
    const members = await serviceDb().renderGroupMember.findMany({ where: { groupId: batch.id }, orderBy: { position: 'asc' } });
    expect(members[0]!.jobId).toBe(before[0]!.jobId);
    expect(members[1]!.jobId).not.toBe(before[1]!.jobId);
    expect(await serviceDb().renderJob.count({ where: { groupId: batch.id } })).toBe(3);
    expect(await balance(account.accountId)).toBe(9);

    const manifest = JSON.parse((await unzip((await fetchArchive(after.archive_url)).bytes)).at(-1)!.bytes.toString('utf8'));
    expect(manifest.members[1]).toMatchObject({ position: 1, state: 'failed', error_code: expect.any(String), file: null });
  });

  it('answers the archive link 404 when nothing succeeded, 404 when forged and 403 when expired', async () => {
    const account = await newAccount({ plan: 'starter', credits: 5 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const failing = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'A', fail: true }] });
    const failed = await settled('batches', account.apiKey, failing.body.id);
    expect(failed.state).toBe('failed');
    expect(failed.archive_url).toBeNull();

    const working = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'A' }] });
    const done = await settled('batches', account.apiKey, working.body.id);
    const url = new URL(done.archive_url);
    const [id, expiry, signature] = url.pathname.split('/').at(-1)!.split('.');
    const forged = `${url.origin}/v1/batches/archive/${id}.${Number(expiry) + 60}.${signature}`;
    expectError(await api(new URL(forged).pathname), 404, 'not_found');
    expectError(await api(`/v1/carousels/archive/${url.pathname.split('/').at(-1)}`), 404, 'not_found');
    const secret = await signingSecret(serviceContext());
    expectError(await api(`/v1/batches/archive/${signLinkToken(archiveLinkTokens, secret, failed.id, new Date(Date.now() + 60_000))}`), 404, 'not_found');
    expectError(await api(`/v1/batches/archive/${signLinkToken(archiveLinkTokens, secret, done.id, new Date(Date.now() - 1000))}`), 403, 'download_expired');
  });

  it('cancels pending rows and queued jobs, lets the rest finish, and retries cancelled rows', async () => {
    const account = await newAccount({ plan: 'scale', credits: 40 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const rows = Array.from({ length: 12 }, (_, index) => ({ name: `Row ${index}` }));
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows });
    const cancelled = await api(`/v1/batches/${created.body.id}/cancel`, { method: 'POST', key: account.apiKey });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.rows.filter((row: { state: string }) => row.state === 'cancelled').length).toBeGreaterThanOrEqual(4);
    expect((await api(`/v1/batches/${created.body.id}/cancel`, { method: 'POST', key: account.apiKey })).status).toBe(200);

    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(['cancelled', 'partial']).toContain(batch.state);
    const succeeded = batch.rows.filter((row: { state: string }) => row.state === 'succeeded');
    expect(batch.rows.every((row: { state: string }) => row.state === 'succeeded' || row.state === 'cancelled')).toBe(true);
    expect(await balance(account.accountId)).toBe(40 - succeeded.length);
    for (const row of succeeded) expect((await fetch(row.download_url)).status).toBe(200);
    const cancelledJobs = await serviceDb().renderJob.findMany({ where: { groupId: batch.id, status: 'cancelled' } });
    for (const job of cancelledJobs) {
      expect(job.credit).toBe('released');
      expect(await serviceDb().renderEvent.count({ where: { jobId: job.id, type: 'render.cancelled' } })).toBe(1);
    }

    const retried = await api(`/v1/batches/${batch.id}/retry`, { method: 'POST', key: account.apiKey });
    expect(retried.status).toBe(200);
    const complete = await settled('batches', account.apiKey, batch.id);
    expect(complete.state).toBe('complete');
    expect(await balance(account.accountId)).toBe(28);
    const archive = await unzip((await fetchArchive(complete.archive_url)).bytes);
    expect(archive.map((entry) => entry.name)).toEqual([...Array.from({ length: 12 }, (_, index) => `${String(index + 1).padStart(3, '0')}.pdf`), 'manifest.json']);
  });

  it('cancels what a revoked key has not started, as a batch cancel does, and admits none of it later', async () => {
    const account = await newAccount({ plan: 'scale', credits: 40 });
    const other = await api('/v1/keys', { method: 'POST', key: account.apiKey, body: { name: 'leaked' } });
    expect(other.status).toBe(201);
    const template = await newTemplate(account.apiKey, { source, schema });
    const rows = Array.from({ length: 12 }, (_, index) => ({ name: `Row ${index}` }));
    const created = await createGroup('batches', other.body.secret, { template_id: template.id, format: 'pdf', rows });
    expect(created.status).toBe(201);
    expect((await api(`/v1/keys/${other.body.id}`, { method: 'DELETE', key: account.apiKey })).body.status).toBe('revoked');
    // at once: no row waits for admission any more
    expect(await serviceDb().renderGroupMember.count({ where: { groupId: created.body.id, state: 'pending' } })).toBe(0);

    const batch = await settled('batches', account.apiKey, created.body.id);
    expect(['cancelled', 'partial']).toContain(batch.state);
    const succeeded = batch.rows.filter((row: { state: string }) => row.state === 'succeeded');
    const cancelled = batch.rows.filter((row: { state: string }) => row.state === 'cancelled');
    expect(cancelled.length).toBeGreaterThanOrEqual(8);
    expect(succeeded.length + cancelled.length).toBe(12);
    expect(await balance(account.accountId)).toBe(40 - succeeded.length);
    expect(await serviceDb().creditReservation.count({ where: { accountId: account.accountId, state: 'reserved' } })).toBe(0);
    const cancelledJobs = await serviceDb().renderJob.findMany({ where: { groupId: batch.id, status: 'cancelled' } });
    for (const job of cancelledJobs) {
      expect(job.credit).toBe('released');
      expect(await serviceDb().renderEvent.count({ where: { jobId: job.id, type: 'render.cancelled' } })).toBe(1);
    }

    // neither the background drain nor a retry by another key spends for the revoked key
    const jobs = await serviceDb().renderJob.count({ where: { groupId: batch.id } });
    const retried = await api(`/v1/batches/${batch.id}/retry`, { method: 'POST', key: account.apiKey });
    expect(retried.status).toBe(200);
    expect(retried.body.rows.filter((row: { state: string }) => row.state === 'cancelled')).toHaveLength(cancelled.length);
    expect(['cancelled', 'partial']).toContain(retried.body.state);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await serviceDb().renderJob.count({ where: { groupId: batch.id } })).toBe(jobs);
    expect(await balance(account.accountId)).toBe(40 - succeeded.length);
  });

  it('answers retry 429 when the key has no room and there is something to retry', async () => {
    const account = await newAccount({ plan: 'starter', credits: 20 });
    const template = await newTemplate(account.apiKey, { source, schema });
    const created = await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'A', fail: true }] });
    await settled('batches', account.apiKey, created.body.id);
    // eight live jobs of the key: a retry has nowhere to go
    const slow = '<script>const end = Date.now() + 4000; while (Date.now() < end) {}</script><p>slow</p>';
    const live = await Promise.all(
      Array.from({ length: 8 }, () => api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: slow, javascript: { mode: 'enabled' }, wait: false } })),
    );
    expect(live.every((response) => response.status === 202)).toBe(true);
    const refused = await api(`/v1/batches/${created.body.id}/retry`, { method: 'POST', key: account.apiKey });
    expectError(refused, 429, 'key_concurrency_limited');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await serviceDb().renderJob.count({ where: { groupId: created.body.id } })).toBe(1);
    await until(async () => (await serviceDb().renderJob.count({ where: { accountId: account.accountId, status: { in: ['queued', 'running'] } } })) === 0, 90_000);
  });
});

securitySuite('GET /v1/batches/{id}', {
  method: 'GET',
  path: (id) => `/v1/batches/${id}`,
  missingId: 'batch_00000000000000000000000000000000',
  arrange: async (account) => {
    const template = await newTemplate(account.apiKey, { source, schema });
    return (await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'A' }] })).body.id;
  },
});
securitySuite('POST /v1/batches/{id}/cancel', {
  method: 'POST',
  path: (id) => `/v1/batches/${id}/cancel`,
  missingId: 'batch_00000000000000000000000000000000',
  arrange: async (account) => {
    const template = await newTemplate(account.apiKey, { source, schema });
    return (await createGroup('batches', account.apiKey, { template_id: template.id, format: 'pdf', rows: [{ name: 'A' }] })).body.id;
  },
});
