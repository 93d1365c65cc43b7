import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { enqueue } from '../../../packages/core/src/tasks/enqueue.ts';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serviceNodeArgs } from '../../../scripts/service-process.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let database: TestDatabase;
let worker: ChildProcess;
let output = '';

async function until<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; worker output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  worker = spawn(process.execPath, serviceNodeArgs('apps/worker/src/main.ts'), {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (chunk) => (output += chunk));
  worker.stderr?.on('data', (chunk) => (output += chunk));
  await until(async () => output.includes('worker running'));
});

afterAll(async () => {
  if (worker.exitCode === null) worker.kill('SIGKILL');
  await database.drop();
});

describe('worker process', () => {
  it('runs a task enqueued in the same transaction as a domain write, and never one whose transaction rolled back', async () => {
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig() });
    const account = await createAccount(ctx, { plan: 'growth' });
    await database.db
      .$transaction(async (tx) => {
        await enqueue(tx, 'monthly_credit_reset', { _cron: { ts: '2031-01-01T00:00:00.000Z', backfilled: false } });
        throw new Error('roll back');
      })
      .catch(() => {});
    await database.db.$transaction((tx) => enqueue(tx, 'monthly_credit_reset', { _cron: { ts: '2031-02-01T00:00:00.000Z', backfilled: false } }));

    const reset = await until(() => database.db.creditPeriodReset.findUnique({ where: { accountId_period: { accountId: account.accountId, period: '2031-02' } } }));
    expect(reset).toBeTruthy();
    const balance = await database.db.creditBalance.findUnique({ where: { accountId_bucket: { accountId: account.accountId, bucket: 'subscription' } } });
    expect(balance?.balance).toBe(5000);
    await until(async () => (await database.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs`)[0]?.n === 0n);
    expect(await database.db.creditPeriodReset.findUnique({ where: { accountId_period: { accountId: account.accountId, period: '2031-01' } } })).toBeNull();
  });

  it('registers the monthly reset as a cron task', async () => {
    const known = await database.db.$queryRaw<{ identifier: string }[]>`SELECT identifier FROM graphile_worker._private_known_crontabs`;
    expect(known.map((row) => row.identifier)).toContain('monthly_credit_reset');
  });

  it('shuts down gracefully on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
