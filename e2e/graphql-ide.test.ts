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

/** The named type under any list and non-null wrappers. */
function named(type: { kind: string; name: string | null; ofType: any }): string {
  return type.name ?? named(type.ofType);
}

it('introspection shows every timestamp as DateTime and every fixed value set as an enum of UPPER_CASE values', async () => {
  const token = await operatorToken('ide types');
  const wrapped = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
  const query = `query { __schema { types { name kind fields { name type { ${wrapped} } } inputFields { name type { ${wrapped} } } enumValues { name } } } }`;
  const answered = await apiAt(base, '/api/graphql', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: { query } });
  expect(answered.status).toBe(200);
  const types = (answered.body.data.__schema.types as any[]).filter((type) => !type.name.startsWith('__'));
  const fieldTypes = new Map<string, string>();
  for (const type of types) for (const field of [...(type.fields ?? []), ...(type.inputFields ?? [])]) fieldTypes.set(`${type.name}.${field.name}`, named(field.type));

  const expected = {
    'ArchiveEvent.archivedAt': 'DateTime',
    'ArchiveEvent.restoredAt': 'DateTime',
    'BrandAsset.createdAt': 'DateTime',
    'RenderArtifact.expiresAt': 'DateTime',
    'Webhook.previousSecretExpiresAt': 'DateTime',
    'WebhookDelivery.createdAt': 'DateTime',
    'Webhook.status': 'WebhookStatus',
    'Webhook.disabledReason': 'WebhookDisabledReason',
    'Webhook.events': 'WebhookEvent',
    'WebhookDelivery.event': 'WebhookEvent',
    'RenderError.category': 'JobErrorCategory',
    'FailureRate.category': 'JobErrorCategory',
    'RenderJobFilter.errorCategory': 'JobErrorCategory',
    'RenderArtifact.mediaType': 'ArtifactMediaType',
    'RenderArtifact.removedReason': 'ArtifactRemovedReason',
    'BrandAsset.kind': 'BrandAssetKind',
    'BrandAsset.mediaType': 'BrandAssetMediaType',
    'RenderGroup.kind': 'GroupKind',
    'RenderGroup.format': 'RenderFormat',
    'RenderJob.kind': 'RenderKind',
    'ServiceStatus.status': 'ServiceState',
    'AuditEntry.action': 'AuditAction',
    'AuditEntry.targetType': 'AuditTargetType',
  };
  for (const [field, type] of Object.entries(expected)) expect(fieldTypes.get(field), field).toBe(type);
  // no timestamp is left as text anywhere
  const textTimes = [...fieldTypes].filter(([field, type]) => /At$|Before$|From$/.test(field) && type !== 'DateTime');
  expect(textTimes).toEqual([]);

  const enums = Object.fromEntries(types.filter((type) => type.kind === 'ENUM').map((type) => [type.name, type.enumValues.map((value: { name: string }) => value.name)]));
  for (const [name, values] of Object.entries(enums)) for (const value of values as string[]) expect(value, name).toMatch(/^[A-Z][A-Z0-9_]*$/);
  // the schema is printed sorted, enum values included
  expect(enums.WebhookEvent).toEqual(['RENDER_CANCELLED', 'RENDER_FAILED', 'RENDER_SUCCEEDED']);
  expect(enums.ArtifactMediaType).toEqual(['APPLICATION_PDF', 'IMAGE_JPEG', 'IMAGE_PNG', 'IMAGE_WEBP']);
  expect(enums.BrandAssetMediaType).toEqual(['FONT_WOFF2', 'IMAGE_JPEG', 'IMAGE_PNG', 'IMAGE_WEBP']);
  expect(enums.AuditAction).toContain('MARK_TESTIMONIAL_REVIEWED');
  expect(enums.CreditBucket).toEqual(['FREE_MONTHLY', 'PACK', 'SUBSCRIPTION', 'TRIAL']);
}, 120_000);
