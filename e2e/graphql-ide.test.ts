// With SVC_GRAPHQL_IDE=1 the internal GraphQL API serves its IDE page and answers introspection
// (to operator tokens only); the shared web process, started without it, does neither.
import { type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { apiAt } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { operatorToken } from './support/graphql.ts';

let web: ChildProcess | undefined;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-graphql-ide-'));
  web = startProcess('apps/web/src/server.ts', { DATABASE_URL: inject('httpDatabaseUrl'), PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_GRAPHQL_IDE: '1' });
  await waitFor(`${base}/v1/openapi.json`, web);
});

afterAll(async () => {
  if (web) await stopProcess(web);
});

it('serves the IDE page and answers introspection to an operator token, still 401 without one', async () => {
  const page = await fetch(`${base}/api/graphql`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(await page.text()).toMatch(/Apollo|sandbox/i);

  const introspection = { query: 'query { __schema { queryType { name } types { name } } }' };
  const token = await operatorToken('ide');
  const answered = await apiAt(base, '/api/graphql', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: introspection });
  expect(answered.status).toBe(200);
  expect(answered.body.data.__schema.queryType.name).toBe('Query');
  expect(answered.body.data.__schema.types.map((type: { name: string }) => type.name)).toContain('RenderJob');
  expect((await apiAt(base, '/api/graphql', { method: 'POST', body: introspection })).status).toBe(401);
}, 120_000);
