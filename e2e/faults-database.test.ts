// PostgreSQL restarted under a steady load of renders, batches and webhook deliveries: fast
// shutdown, back 5 s later; while it is down, any route answers 503 overloaded. The suite's server is shared by test files running in parallel, so
// this one starts an embedded PostgreSQL of its own, on its own port and data directory.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@svc/db';
import { type DatabaseHandle, migrate, resolveDatabase } from '@svc/db/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/global-setup.ts';
import { type FaultEnv, startFaultEnv } from './support/fault-env.ts';
import { checkAfterFault, faultAccount, SteadyLoad } from './support/fault-load.ts';
import { until } from './support/until.ts';

let server: DatabaseHandle;
let dataDir: string;
let port: number;
let env: FaultEnv;

const startServer = () => resolveDatabase({ dataDir, port, database: 'svc_faults' });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-faults-pg-'));
  port = await freePort();
  server = await startServer();
  await migrate(server.url);
  const db = createDb({ url: server.url, poolSize: 4 });
  env = await startFaultEnv({
    database: { url: server.url, db, drop: () => db.$disconnect() },
    env: { SVC_RENDER_TIMEOUT_SECONDS: '10', SVC_RENDER_LEASE_SECONDS: '15' },
  });
}, 240_000);

afterAll(async () => {
  await env?.stop();
  await server?.stop();
  if (!dataDir) return;
  // as root the cluster lives elsewhere, where dataDir/pg links to
  const cluster = await realpath(join(dataDir, 'pg')).catch(() => null);
  if (cluster) await rm(cluster, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe('PostgreSQL restarted under a steady load', () => {
  it('loses no job and charges none twice when the server stops (fast) and is back in 5 s', async () => {
    const account = await faultAccount(env, '/hooks/database-restarted');
    const load = new SteadyLoad(env, account).start();
    await until(async () => (await env.database.db.renderJob.count({ where: { accountId: account.accountId, status: 'running' } })) > 0);
    await server.stop();
    const downSince = Date.now();
    // every route, reads and settings too, answers the outage as 503 overloaded with its retry
    for (const path of ['/v1/pdf?limit=5', `/v1/templates/${account.templateId}`, '/v1/keys', '/v1/webhooks']) {
      const response = await fetch(`${env.baseUrl}${path}`, { headers: { authorization: `Bearer ${account.apiKey}` } });
      const body = (await response.json()) as { error?: { code?: string } };
      expect({ path, status: response.status, code: body.error?.code, retryAfter: response.headers.get('retry-after') }).toEqual({ path, status: 503, code: 'overloaded', retryAfter: '2' });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 5000 - (Date.now() - downSince))));
    server = await startServer();
    const from = load.sent.length;
    await until(async () => load.sent.length >= from + 6, 120_000);
    await load.stop();
    await checkAfterFault(env, account, load, 'PostgreSQL restarted');
  }, 300_000);
});
