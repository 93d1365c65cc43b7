// The internal GraphQL API admits operator tokens only, and refuses abusive queries.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, newAccount, serviceDb } from './support/api.ts';
import { svc } from './support/cli.ts';
import { expectUnauthenticated, gql, gqlData, gqlError, operatorToken } from './support/graphql.ts';
import { signIn } from './support/sessions.ts';

const query = 'query { serviceStatus { backlog } }';

let token: string;
beforeAll(async () => {
  token = await operatorToken('auth');
});

describe('GraphQL authentication', () => {
  it('a token made by the CLI works until the CLI revokes it; it is printed once and stored as a hash', async () => {
    const created = await svc(['operator', 'token', 'create', '--name', 'support desk', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!);
    expect(Object.keys(printed).sort()).toEqual(['id', 'token']);
    expect(printed.token).toMatch(/^svc_op_v1_[0-9a-f]{64}$/);
    expect((await gql(query, { token: printed.token })).status).toBe(200);

    const stored = await serviceDb().operatorToken.findUniqueOrThrow({ where: { id: printed.id } });
    expect(stored.name).toBe('support desk');
    expect(JSON.stringify(stored)).not.toContain(printed.token.slice(10));

    const revoked = await svc(['operator', 'token', 'revoke', printed.id, '--json']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: printed.id, revoked_at: expect.any(String) });
    expectUnauthenticated(await gql(query, { token: printed.token }));
    expect((await svc(['operator', 'token', 'revoke', 'optok_00000000000000000000000000000000'])).code).toBe(1);
    expect((await svc(['operator', 'token', 'create'])).code).toBe(2);
  }, 120_000);

  it('no token, another scheme, a malformed or unknown token, an API key and a session cookie all answer 401 UNAUTHENTICATED', async () => {
    const account = await newAccount();
    const session = await signIn(account.accountId);
    expectUnauthenticated(await gql(query));
    expectUnauthenticated(await gql(query, { headers: { authorization: `Basic ${token}` } }));
    expectUnauthenticated(await gql(query, { token: `${token}0` }));
    expectUnauthenticated(await gql(query, { token: `svc_op_v1_${'0'.repeat(64)}` }));
    expectUnauthenticated(await gql(query, { token: account.apiKey }));
    expectUnauthenticated(await gql(query, { headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken } }));
    expect((await gql(query, { token })).status).toBe(200);
  });

  it('without SVC_GRAPHQL_IDE there is no IDE page, and introspection is refused in the service\'s own words', async () => {
    expect((await api('/api/graphql', { headers: { accept: 'text/html' } })).status).toBe(405);
    const asks = ['query { __schema { types { name } } }', 'query { __type(name: "RenderJob") { fields { name } } }', 'query { serviceStatus { backlog } __schema { queryType { name } } }'];
    for (const query of asks) {
      const refused = await gql(query, { token });
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toHaveLength(1);
      expect(refused.body.errors![0]).toMatchObject({
        message: 'Introspection is turned off on this server. The schema is published as schema.graphql with the service.',
        extensions: { code: 'introspection_disabled', status: 400, request_id: refused.headers.get('x-request-id') },
      });
      expect(Object.keys(refused.body.errors![0].extensions).sort()).toEqual(['code', 'request_id', 'status']);
      expect(refused.text).not.toMatch(/apollo/i);
    }
    // __typename is not introspection
    expect(await gqlData('query { serviceStatus { __typename } }', { token })).toEqual({ serviceStatus: { __typename: 'ServiceStatus' } });
  });
});

describe('GraphQL query limits', () => {
  it('refuses a query nested too deeply with query_too_complex, before resolving anything', async () => {
    const deep = 'query ($id: ID!) { account(id: $id) { recentJobs { account { recentJobs { account { recentJobs { account { recentJobs { account { id } } } } } } } } } }';
    const error = await gqlError(deep, { token, variables: { id: 'acct_00000000000000000000000000000000' } }, 'query_too_complex');
    expect(error.message).toMatch(/^The query is nested too deeply/);
  });

  it('refuses a query that asks for too much at once, and accepts the same shape asking for less', async () => {
    const heavy = 'query { accounts(first: 100) { edges { node { recentJobs(first: 50) { id kind status createdAt finishedAt } } } } }';
    await gqlError(heavy, { token }, 'query_too_complex');
    await gqlData('query { accounts(first: 10) { edges { node { recentJobs(first: 50) { id kind status createdAt finishedAt } } } } }', { token });
  });

  it('refuses a page size outside 1 to 100 with invalid_request', async () => {
    const error = await gqlError('query { accounts(first: 101) { edges { cursor } } }', { token }, 'invalid_request');
    expect(error.extensions.details).toEqual([{ field: 'first', reason: 'invalid value' }]);
  });

  it('refuses a body over 64 KiB with 413 request_too_large', async () => {
    const response = await gql(`query { serviceStatus { backlog } } # ${'x'.repeat(64 * 1024)}`, { token });
    expect(response.status).toBe(413);
    expect(response.body.errors?.map((error: any) => error.extensions.code)).toEqual(['request_too_large']);
  });

  it('refuses a malformed cursor with invalid_cursor', async () => {
    await gqlError('query { accounts(first: 1, after: "!!") { edges { cursor } } }', { token }, 'invalid_cursor');
  });
});
