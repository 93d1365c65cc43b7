import { operations } from '@svc/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectError, newAccount, type TestAccount } from './support/api.ts';

const getOperations = operations.filter((operation) => operation.method === 'get');

/** A value of the shape the contract declares for a path parameter, so the route reaches its query check. */
function sampleParameter(schema: { type?: string; pattern?: string }): string {
  if (schema.type === 'integer') return '1';
  const prefix = /^\^([a-z_]+_)\[0-9a-f\]\{32\}\$$/.exec(schema.pattern ?? '')?.[1];
  if (prefix) return `${prefix}${'0'.repeat(32)}`;
  if (schema.pattern?.includes('batch|carousel|pack')) return `batch_${'0'.repeat(32)}.1.${'A'.repeat(43)}`;
  return 'token';
}

describe('query parameters of GET routes', () => {
  let account: TestAccount;
  let contract: any;
  beforeAll(async () => {
    account = await newAccount();
    contract = (await api('/v1/openapi.json')).body;
  });

  it('declares a query schema on every GET operation', () => {
    const undeclared = getOperations.filter((operation) => !operation.query).map((operation) => operation.operationId);
    expect(undeclared).toEqual([]);
  });

  it('refuses an unknown query parameter on every GET route with 400 invalid_request naming it', async () => {
    for (const operation of getOperations) {
      const described = contract.paths[operation.path][operation.method];
      const pathParameters = (described.parameters ?? []).filter((parameter: { in: string }) => parameter.in === 'path');
      let path = operation.path;
      for (const parameter of pathParameters) path = path.replace(`{${parameter.name}}`, sampleParameter(parameter.schema));
      const response = await api(`${path}?unexpected_parameter=5`, { key: operation.auth === 'none' ? null : account.apiKey });
      const error = expectError(response, 400, 'invalid_request');
      expect(error.details, `${operation.operationId} ${path}`).toEqual([{ field: 'unexpected_parameter', reason: 'unknown field' }]);
      // and the document declares that answer, so a validating gateway lets it through
      expect(described.responses['400']?.description, operation.operationId).toContain('invalid_request');
    }
  }, 120_000);

  it('documents exactly the parameters a list route accepts', async () => {
    const webhooks = contract.paths['/v1/webhooks'].get;
    expect(webhooks.parameters ?? []).toEqual([]);
    const error = expectError(await api('/v1/webhooks?limit=5', { key: account.apiKey }), 400, 'invalid_request');
    expect(error.details).toEqual([{ field: 'limit', reason: 'unknown field' }]);
    const keys = contract.paths['/v1/keys'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(keys).toEqual(['limit', 'cursor']);
    expect((await api('/v1/keys?limit=5', { key: account.apiKey })).status).toBe(200);
  });
});
