// An evaluation the machine is too busy to run is refused as 503 overloaded with Retry-After and
// costs the account nothing: its evaluation budget is as full as before, no credit is held and
// no job is recorded. A web process of its own, with a 2 s overload bound
// (SVC_TEMPLATE_OVERLOAD_SECONDS), is starved for real: stopped (SIGSTOP) for longer than the
// bound, let run for a tenth of a second, stopped again, until the request is answered. The
// evaluation needs about half a second of its thread's CPU, so it spans a stop, and the safety
// net sees its wall time past the bound with its CPU time under timeMs.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAt, type ApiResponse } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';

/** Runs to the sandbox's work limit: about half a second of the evaluating thread's CPU. */
const burner = '{% for i in range(100000) %}{% for j in range(100) %}{% endfor %}{% endfor %}';
const overloadSeconds = 2;
/** Longer than the bound plus the pool's 500 ms grace: every stop lands the evaluation past it. */
const stopMs = 3_500;
/** A fifth of what the evaluation needs, so it never finishes between two stops. */
const runMs = 100;

let database: TestDatabase;
let web: ChildProcess;
let baseUrl: string;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase(inject('dbServerUrl'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'svc-overloaded-'));
  web = startProcess('apps/web/src/server.ts', {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_PUBLIC_URL: baseUrl,
    SVC_DATA_DIR: dataDir,
    SVC_TEMPLATE_OVERLOAD_SECONDS: String(overloadSeconds),
  });
  await waitFor(`${baseUrl}/v1/openapi.json`, web);
}, 180_000);

afterAll(async () => {
  if (web?.pid) process.kill(web.pid, 'SIGCONT');
  if (web) await stopProcess(web);
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers `request` while the web process gets runMs of every runMs + stopMs of wall time. */
async function starved(pid: number, request: Promise<ApiResponse>): Promise<{ response: ApiResponse; stops: number }> {
  let answered = false;
  const answer = request.finally(() => (answered = true));
  let stops = 0;
  try {
    while (!answered) {
      await sleep(runMs);
      if (answered) break;
      process.kill(pid, 'SIGSTOP');
      stops += 1;
      await sleep(stopMs);
      process.kill(pid, 'SIGCONT');
    }
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  return { response: await answer, stops };
}

describe('an evaluation refused as overloaded', () => {
  it('answers 503 overloaded with Retry-After and charges neither the evaluation budget nor a credit', async () => {
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({}) });
    const db = database.db;
    // another account loads the render route and a sandbox first, so the starved request's
    // first moments are its own evaluation's
    const warm = await createAccount(ctx, { plan: 'free', credits: 1 });
    const preview = await apiAt(baseUrl, '/v1/templates/preview', { method: 'POST', key: warm.apiKey, body: { source: '<h1>{{ title }}</h1>', data: { title: 'warm' } } });
    expect(preview.status, preview.text.slice(0, 300)).toBe(200);
    const broken = await apiAt(baseUrl, '/v1/pdf', { method: 'POST', key: warm.apiKey, body: { html: '{% if %}', data: {} } });
    expect([broken.status, broken.body?.error?.code]).toEqual([400, 'template_syntax_error']);

    const { apiKey, accountId } = await createAccount(ctx, { plan: 'free', credits: 5 });
    const bucket = `template_evaluation:${accountId}`;
    /** The bucket's tokens now, refilled to this moment (no row: full, five seconds). */
    const tokens = async () =>
      (
        await db.$queryRaw<{ tokens: number }[]>`
          SELECT LEAST(5::float8, tokens::float8 + GREATEST(0, EXTRACT(EPOCH FROM (now() - updated_at))) * 0.5::float8) AS tokens
            FROM rate_limit_buckets WHERE key = ${bucket}`
      )[0]?.tokens ?? 5;
    const credits = () => db.creditBalance.findMany({ where: { accountId }, orderBy: { bucket: 'asc' } });
    const before = { tokens: await tokens(), credits: await credits(), ledger: await db.creditLedgerEntry.count({ where: { accountId } }) };

    const { response, stops } = await starved(web.pid!, apiAt(baseUrl, '/v1/pdf', { method: 'POST', key: apiKey, body: { html: burner, data: {} } }));

    expect([response.status, response.body?.error?.code], `${stops} stops: ${response.text.slice(0, 300)}`).toEqual([503, 'overloaded']);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // what was taken before evaluating is given back, and the worker's time is not charged
    // (it was several seconds of wall time; the bucket was full and can only have refilled)
    expect(await tokens()).toBeGreaterThanOrEqual(before.tokens - 1e-6);
    expect(await db.creditReservation.count({ where: { accountId } })).toBe(0);
    expect(await credits()).toEqual(before.credits);
    expect(await db.creditLedgerEntry.count({ where: { accountId } })).toBe(before.ledger);
    expect(await db.renderJob.count({ where: { accountId } })).toBe(0);

    // the process serves on: the same account renders a light template's evaluation at once
    const light = await apiAt(baseUrl, '/v1/templates/preview', { method: 'POST', key: apiKey, body: { source: '<p>{{ n }}</p>', data: { n: 1 } } });
    expect(light.status, light.text.slice(0, 300)).toBe(200);
  }, 180_000);
});
