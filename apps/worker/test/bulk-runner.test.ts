// Group members' renders run in render slots of their own: with the worker down to one slot for
// single renders and batches of three accounts draining, a single render starts while members
// render, rather than after them. Needs a browser pool of two slots or more (bulk work holds all
// but one).
import { availableParallelism } from 'node:os';
import { createAccount, createBatch, createRender, createServiceContext, createTemplate, loadConfig, silentLogger } from '@svc/core';
import type { ApiKeyPrincipal } from '../../../packages/core/src/auth/principal.ts';
import { describe, expect, it } from 'vitest';
import { until } from '../../../e2e/support/until.ts';
import { useWorkerProcesses } from './support/worker-processes.ts';

const processes = useWorkerProcesses('bulk-runner');

describe('bulk render slots', () => {
  it.skipIf(availableParallelism() < 2)('a single render starts while group members render, with one single-render slot', async () => {
    const database = processes.database();
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({ SVC_DATA_DIR: processes.dataDir() }) });
    const principalOf = async (credits: number): Promise<ApiKeyPrincipal> => {
      const account = await createAccount(ctx, { plan: 'scale', credits });
      const key = await database.db.apiKey.findFirstOrThrow({ where: { accountId: account.accountId } });
      return { kind: 'api_key', accountId: account.accountId, keyId: key.id, plan: 'scale', monthlyOverageCap: null };
    };

    // each row busies its page for 1.5 s
    const source = '<script>const end = Date.now() + 1500; while (Date.now() < end) {}</script><p>{{ n }}</p>';
    const groups: string[] = [];
    for (let index = 0; index < 3; index++) {
      const principal = await principalOf(10);
      const template = await createTemplate(ctx, { accountId: principal.accountId, request: { source } });
      const rows = Array.from({ length: 3 }, (_, n) => ({ n }));
      const { groupId } = await createBatch(ctx, { principal, request: { template_id: template.template.id, format: 'pdf', rows }, idempotencyKey: `batch-${index}` });
      groups.push(groupId);
    }
    // the rows need script: the batch's own options keep it off; turned on before any worker runs
    // (a worker claims a queued job within milliseconds)
    await database.db.$executeRaw`UPDATE render_group_members SET options = jsonb_set(options, '{javascript}', '"enabled"') WHERE group_id = ANY(${groups})`;
    await database.db.$executeRaw`UPDATE render_jobs SET options = jsonb_set(options, '{javascript}', '"enabled"') WHERE group_id = ANY(${groups})`;
    const worker = processes.startWorker({ SVC_WORKER_RENDER_CONCURRENCY: '1', SVC_WORKER_BULK_CONCURRENCY: '2', SVC_GROUP_CONCURRENCY: '2' });
    await until(async () => worker.output().includes('worker running'), 30_000);
    await until(async () => (await database.db.renderJob.count({ where: { groupId: { in: groups }, status: 'running' } })) > 0, 30_000);

    const single = await principalOf(5);
    const { job } = await createRender(ctx, { principal: single, kind: 'pdf', request: { html: '<p>single</p>', wait: false }, idempotencyKey: null });
    await until(async () => (await database.db.renderJob.findUniqueOrThrow({ where: { id: job.id } })).status === 'succeeded', 60_000);
    const rendered = await database.db.renderJob.findUniqueOrThrow({ where: { id: job.id } });
    await until(async () => (await database.db.renderJob.count({ where: { groupId: { in: groups }, status: 'succeeded' } })) === 9, 120_000);

    const members = await database.db.renderJob.findMany({ where: { groupId: { in: groups } } });
    expect(members.map((member) => member.status)).toEqual(Array(9).fill('succeeded'));
    // the single started while a member was rendering, and ended before the batches did
    const overlapping = members.filter((member) => member.startedAt! < rendered.startedAt! && member.finishedAt! > rendered.startedAt!);
    expect(overlapping.length).toBeGreaterThan(0);
    expect(members.filter((member) => member.finishedAt! > rendered.finishedAt!).length).toBeGreaterThan(0);

    worker.child.kill('SIGTERM');
    await new Promise((resolve) => worker.child.once('exit', resolve));
  }, 240_000);
});
