// A real worker process killed (SIGKILL) mid-render: its browser does not outlive it, the
// next worker to start takes the job up once the lease has run out, and the job finishes
// once with its credit settled once. The lifecycle's finer cases (fencing, failures, attempts)
// are in packages/core/test/render-lifecycle.test.ts, on the context clock.
import { readFileSync } from 'node:fs';
import { createAccount, createRender, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import type { ApiKeyPrincipal } from '../../../packages/core/src/auth/principal.ts';
import { describe, expect, it } from 'vitest';
import { loggedEvent } from '../../../e2e/support/log-lines.ts';
import { until } from '../../../e2e/support/until.ts';
import { useWorkerProcesses } from './support/worker-processes.ts';

const processes = useWorkerProcesses('crash');
const { startWorker } = processes;

/** Whether a process runs (a zombie waiting to be reaped runs nothing). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('worker crash', () => {
  it('leaves no browser behind and no job stuck, and charges the credit once', async () => {
    const database = processes.database();
    const dataDir = processes.dataDir();
    const ctx = createServiceContext({ db: database.db, databaseUrl: database.url, logger: silentLogger, config: loadConfig({ SVC_DATA_DIR: dataDir }) });
    const account = await createAccount(ctx, { plan: 'free', credits: 3 });
    const key = await database.db.apiKey.findFirstOrThrow({ where: { accountId: account.accountId } });
    const principal: ApiKeyPrincipal = { kind: 'api_key', accountId: account.accountId, keyId: key.id, plan: 'free', monthlyOverageCap: null };

    // a lease shorter than the render, which production never has (the lease outlasts the
    // render timeout), so the next worker need not wait long once this one is gone
    const first = startWorker({ SVC_RENDER_LEASE_SECONDS: '2' });
    await until(async () => first.output().includes('worker running'));
    const browserPid = Number(loggedEvent(first.output(), 'browser launched')?.pid);
    expect(browserPid).toBeGreaterThan(0);
    const slow = '<script>const end = Date.now() + 3000; while (Date.now() < end) {}</script><p>slow</p>';
    const { job } = await createRender(ctx, {
      principal,
      kind: 'pdf',
      request: { html: slow, javascript: { mode: 'enabled' }, wait: false },
      idempotencyKey: null,
    });
    await until(async () => (await database.db.renderJob.findUnique({ where: { id: job.id } }))?.status === 'running');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // Chromium reads its DevTools pipe from the worker: with the worker gone, it exits too
    await until(async () => !isRunning(browserPid), 10_000);

    // a worker that starts after the lease ran out takes the job up at once (recovery at start)
    await until(async () => {
      const row = await database.db.renderJob.findUnique({ where: { id: job.id } });
      return row?.leaseExpiresAt != null && row.leaseExpiresAt < new Date();
    });
    const second = startWorker();
    const finished = await until(async () => {
      const row = await database.db.renderJob.findUnique({ where: { id: job.id } });
      return row && !['queued', 'running'].includes(row.status) ? row : null;
    }, 60_000);
    expect(finished).toMatchObject({ status: 'succeeded', credit: 'settled', attempts: 2 });
    const ledger = await database.db.creditLedgerEntry.findMany({ where: { jobId: job.id }, orderBy: { id: 'asc' } });
    expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
    const balance = await database.db.creditBalance.findFirstOrThrow({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance.balance).toBe(2);
    expect(await database.db.renderEvent.count({ where: { jobId: job.id } })).toBe(1);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    await ctx.completions.close();
  }, 120_000);
});
