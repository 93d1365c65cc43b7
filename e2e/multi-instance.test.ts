// Several machines in miniature: two web and two worker processes, each with a data
// directory of its own, sharing only one PostgreSQL database and one S3 store.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createAccount, createServiceContext, loadConfig, requestRenderThumbnails, silentLogger } from '@svc/core';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAt } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor, waitForLine } from './support/global-setup.ts';
import { startS3, type TestS3 } from './support/s3.ts';

const startingCredits = 20;
let s3: TestS3;
let database: TestDatabase;
const dataDirs: string[] = [];
const processes: ChildProcess[] = [];
const webs: string[] = [];

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-instance-'));
  dataDirs.push(dir);
  return dir;
}

async function startWeb(): Promise<string> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // no SVC_SIGNING_SECRET: the processes must agree on the one kept in the database
  const env = { ...s3.env, DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', SVC_PUBLIC_URL: baseUrl, SVC_DATA_DIR: await dataDir(), SVC_SIGNING_SECRET: '' };
  const web = startProcess('apps/web/src/server.ts', env);
  processes.push(web);
  await waitFor(`${baseUrl}/v1/openapi.json`, web);
  return baseUrl;
}

async function startWorker(): Promise<void> {
  const env = { ...s3.env, DATABASE_URL: database.url, SVC_DATA_DIR: await dataDir(), SVC_WORKER_CONCURRENCY: '2', SVC_SIGNING_SECRET: '' };
  const worker = startProcess('apps/worker/src/main.ts', env);
  processes.push(worker);
  await waitForLine(worker, 'worker running');
}

beforeAll(async () => {
  [s3, database] = await Promise.all([startS3('svc-shared'), createTestDatabase(inject('dbServerUrl'))]);
  const [webA, webB] = await Promise.all([startWeb(), startWeb(), startWorker(), startWorker()]);
  webs.push(webA as string, webB as string);
});

afterAll(async () => {
  await Promise.all(processes.map(stopProcess));
  await database?.drop();
  await s3?.close();
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

type Kind = 'pdf' | 'image';

/** Polls one job through the web process that is not the one it was sent to. */
async function finished(base: string, kind: Kind, id: string, key: string) {
  for (;;) {
    const response = await apiAt(base, `/v1/${kind}/${id}`, { key });
    if (!['queued', 'running'].includes(response.body.status)) return response.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function sha256Of(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return createHash('sha256').update(Buffer.from(await response.arrayBuffer())).digest('hex');
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('two web and two worker processes on one database and one S3 store', () => {
  it('finishes every job once, serves every file from either web process, and charges exactly', async () => {
    const ctx = createServiceContext({ db: database.db, logger: silentLogger, config: loadConfig({}) });
    const { apiKey: key, accountId } = await createAccount(ctx, { plan: 'free', credits: startingCredits });

    const jobs: { id: string; kind: Kind; sentTo: number }[] = [];
    // two waves of six: the per-key limit allows eight live jobs at a time
    for (let wave = 0; wave < 2; wave++) {
      const sent = await Promise.all(
        Array.from({ length: 6 }, async (_, index) => {
          const n = wave * 6 + index;
          const sentTo = n % 2;
          const kind: Kind = (n >> 1) % 2 === 0 ? 'pdf' : 'image';
          const body = { html: `<h1>Render ${n}</h1>`, wait: n % 3 !== 0, ...(kind === 'image' ? { image: { format: 'png' } } : {}) };
          const response = await apiAt(webs[sentTo]!, `/v1/${kind}`, { method: 'POST', key, body });
          expect([200, 202], response.text).toContain(response.status);
          return { id: response.body.id as string, kind, sentTo };
        }),
      );
      for (const job of sent) await finished(webs[1 - job.sentTo]!, job.kind, job.id, key);
      jobs.push(...sent);
    }

    const rows = await database.db.renderJob.findMany({ where: { accountId } });
    expect(rows).toHaveLength(jobs.length);
    for (const row of rows) expect(row, row.id).toMatchObject({ status: 'succeeded', credit: 'settled', attempts: 1 });

    for (const job of jobs) {
      const row = rows.find((candidate) => candidate.id === job.id)!;
      const events = await database.db.renderEvent.findMany({ where: { jobId: job.id } });
      expect(events.map((event) => event.type)).toEqual(['render.succeeded']);
      const ledger = await database.db.creditLedgerEntry.findMany({ where: { jobId: job.id }, orderBy: { id: 'asc' } });
      expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'settle']);

      // each web process mints its own link; a link minted by one is honoured by the other
      const [viewA, viewB] = await Promise.all(webs.map((base) => apiAt(base, `/v1/${job.kind}/${job.id}`, { key })));
      const pathA = new URL(viewA!.body.download.url).pathname;
      const pathB = new URL(viewB!.body.download.url).pathname;
      expect(viewA!.body.artifact.sha256).toBe(row.sha256);
      for (const url of [viewA!.body.download.url, viewB!.body.download.url, `${webs[1]}${pathA}`, `${webs[0]}${pathB}`]) {
        expect(await sha256Of(url)).toBe(row.sha256);
      }
    }

    const balances = await database.db.creditBalance.findMany({ where: { accountId } });
    expect(balances.reduce((sum, balance) => sum + balance.balance, 0)).toBe(startingCredits - jobs.length);
    expect(await database.db.creditReservation.count({ where: { accountId, state: 'reserved' } })).toBe(0);

    // each PDF's first page, asked for as the dashboard's history asks, is drawn by a worker into the same store
    const pdfs = jobs.filter((job) => job.kind === 'pdf').map((job) => job.id);
    expect(await requestRenderThumbnails(ctx, { accountId, jobs: await database.db.renderJob.findMany({ where: { id: { in: pdfs } } }) })).toHaveLength(pdfs.length);
    const drawn = () => database.db.renderJob.count({ where: { id: { in: pdfs }, thumbnailKey: { not: null } } });
    await expect.poll(drawn, { timeout: 60_000 }).toBe(pdfs.length);
    const stored = await database.db.renderJob.findMany({ where: { accountId } });
    const client = new S3Client({ region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials, forcePathStyle: true });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    client.destroy();
    const keys = stored.flatMap((row) => [row.storageKey, row.thumbnailKey]).filter((key): key is string => key !== null);
    expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual(keys.sort());
    for (const dir of dataDirs) expect(await filesUnder(dir), dir).toEqual([]);
  }, 180_000);
});
