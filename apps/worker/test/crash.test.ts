// A worker killed mid-render: the job is taken up again by the next worker once the
// lease runs out, finishes once, and its credit is settled exactly once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiKeyPrincipal, createAccount, createRender, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until } from '../../../e2e/support/until.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let database: TestDatabase;
let dataDir: string;
const workers: ChildProcess[] = [];

function startWorker() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'production', SVC_DATA_DIR: dataDir, SVC_RENDER_LEASE_SECONDS: '10' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  workers.push(child);
  return { child, output: () => output };
}

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  dataDir = await mkdtemp(join(tmpdir(), 'svc-crash-'));
});

afterAll(async () => {
  for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
  await database.drop();
});

describe('worker crash', () => {
  it('leaves no job stuck and charges the credit once', async () => {
    const ctx = createServiceContext({ db: database.db, databaseUrl: database.url, logger: silentLogger, config: loadConfig({ SVC_DATA_DIR: dataDir }) });
    const account = await createAccount(ctx, { plan: 'free', credits: 3 });
    const key = await database.db.apiKey.findFirstOrThrow({ where: { accountId: account.account_id } });
    const principal: ApiKeyPrincipal = { kind: 'api_key', accountId: account.account_id, keyId: key.id, plan: 'free', monthlyOverageCap: null };

    const first = startWorker();
    await until(async () => first.output().includes('worker running'));
    const slow = '<script>const end = Date.now() + 6000; while (Date.now() < end) {}</script><p>slow</p>';
    const { job } = await createRender(ctx, {
      principal,
      kind: 'pdf',
      request: { html: slow, javascript: { mode: 'enabled' }, wait: false },
      idempotencyKey: null,
    });
    await until(async () => (await database.db.renderJob.findUnique({ where: { id: job.id } }))?.status === 'running');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    // the lease (10 s here, longer than the 6 s render, as in production where it exceeds the
    // render timeout) must run out before another worker may take the job
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    const second = startWorker();
    const finished = await until(async () => {
      const row = await database.db.renderJob.findUnique({ where: { id: job.id } });
      return row && !['queued', 'running'].includes(row.status) ? row : null;
    }, 60_000);
    expect(finished).toMatchObject({ status: 'succeeded', credit: 'settled', attempts: 2 });
    const ledger = await database.db.creditLedgerEntry.findMany({ where: { jobId: job.id }, orderBy: { id: 'asc' } });
    expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
    const balance = await database.db.creditBalance.findFirstOrThrow({ where: { accountId: account.account_id, bucket: 'trial' } });
    expect(balance.balance).toBe(2);
    expect(await database.db.renderEvent.count({ where: { jobId: job.id } })).toBe(1);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    await ctx.completions.close();
  }, 120_000);
});
