// A real worker process killed (SIGKILL) while a batch drains: the next worker takes up the
// rows that were running once their lease ran out, the pending rows are still admitted in
// order, every row ends succeeded, and each row's credit is reserved and settled once.
import { createAccount, createBatch, createServiceContext, createTemplate, loadConfig, silentLogger } from '@svc/core';
import type { ApiKeyPrincipal } from '../../../packages/core/src/auth/principal.ts';
import { describe, expect, it } from 'vitest';
import { until } from '../../../e2e/support/until.ts';
import { useWorkerProcesses } from './support/worker-processes.ts';

const processes = useWorkerProcesses('group-crash');
const { startWorker } = processes;

describe('worker killed while a batch drains', () => {
  it('loses no row and charges none twice', async () => {
    const database = processes.database();
    const dataDir = processes.dataDir();
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({ SVC_DATA_DIR: dataDir }) });
    const account = await createAccount(ctx, { plan: 'scale', credits: 30 });
    const key = await database.db.apiKey.findFirstOrThrow({ where: { accountId: account.accountId } });
    const principal: ApiKeyPrincipal = { kind: 'api_key', accountId: account.accountId, keyId: key.id, plan: 'scale', monthlyOverageCap: null };
    // each row busies the page for a second, so the worker dies with rows running and rows pending
    const source = '<script>const end = Date.now() + 1000; while (Date.now() < end) {}</script><p>{{ n }}</p>';
    const template = await createTemplate(ctx, { accountId: account.accountId, request: { source } });
    const rows = Array.from({ length: 12 }, (_, n) => ({ n }));

    const { groupId } = await createBatch(ctx, { principal, request: { template_id: template.template.id, format: 'pdf', rows }, idempotencyKey: 'crash' });
    // the rows need script: the batch's own options keep it off, so turn it on for the stored jobs
    // and members, before any worker runs (a worker claims a queued job within milliseconds)
    await database.db.$executeRaw`UPDATE render_group_members SET options = jsonb_set(options, '{javascript}', '"enabled"') WHERE group_id = ${groupId}`;
    await database.db.$executeRaw`UPDATE render_jobs SET options = jsonb_set(options, '{javascript}', '"enabled"') WHERE group_id = ${groupId}`;
    // a lease shorter than the render, which production never has, so the next worker need not wait long
    const first = startWorker({ SVC_RENDER_LEASE_SECONDS: '2' });
    await until(async () => first.output().includes('worker running'));
    await until(async () => (await database.db.renderJob.count({ where: { groupId, status: 'running' } })) > 0, 30_000).catch((error) => {
      throw new Error(`${error.message}; worker said: ${first.output().slice(-3000)}`);
    });
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(await database.db.renderGroupMember.count({ where: { groupId, state: 'pending' } })).toBeGreaterThan(0);

    const second = startWorker({ SVC_RENDER_LEASE_SECONDS: '2' });
    await until(async () => (await database.db.renderGroupMember.count({ where: { groupId, state: 'pending' } })) === 0, 120_000);
    await until(async () => (await database.db.renderJob.count({ where: { groupId, status: { in: ['queued', 'running'] } } })) === 0, 120_000).catch(async (error) => {
      const jobs = await database.db.$queryRaw`SELECT j.id, j.status, j.attempts, j.lease_expires_at, q.seq, q.bulk, q.run_at
        FROM render_jobs j LEFT JOIN render_queue q ON q.job_id = j.id WHERE j.group_id = ${groupId} AND j.status IN ('queued', 'running')`;
      throw new Error(`${error.message}; unfinished: ${JSON.stringify(jobs)}; worker said: ${second.output().slice(-3000)}`);
    });

    const members = await database.db.renderGroupMember.findMany({ where: { groupId }, include: { job: true }, orderBy: { position: 'asc' } });
    expect(members.map((member) => member.job?.status)).toEqual(Array(12).fill('succeeded'));
    expect(await database.db.renderJob.count({ where: { groupId } })).toBe(12);
    for (const member of members) {
      const ledger = await database.db.creditLedgerEntry.findMany({ where: { jobId: member.jobId! }, orderBy: { id: 'asc' } });
      expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
      expect(await database.db.renderEvent.count({ where: { jobId: member.jobId! } })).toBe(1);
    }
    const balance = await database.db.creditBalance.findFirstOrThrow({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance.balance).toBe(18);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }, 300_000);
});
