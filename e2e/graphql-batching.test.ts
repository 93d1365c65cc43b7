// DataLoader batching: a page of accounts with their balances and keys costs the same fixed
// number of database queries whatever the page size. The schema runs in-process here on a
// database client that counts every query it sends.
import { createAccount, createServiceContext, loadConfig, silentLogger } from '@svc/core';
import { createDb, type Db } from '@svc/db';
import { graphql } from 'graphql';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { graphqlContext } from '../apps/web/src/graphql/context.ts';
import { schema } from '../apps/web/src/graphql/schema.ts';

const base = createDb({ url: inject('httpDatabaseUrl'), poolSize: 4 });
let queries = 0;
const counting = base.$extends({
  query: {
    async $allOperations({ args, query }) {
      queries += 1;
      return query(args);
    },
  },
}) as unknown as Db;
const ctx = createServiceContext({ db: counting, logger: silentLogger, config: loadConfig() });
const operator = { kind: 'operator' as const, tokenId: 'optok_batching', name: 'batching' };

beforeAll(async () => {
  // a hundred accounts of one plan, each with two keys
  for (let index = 0; index < 100; index++) {
    const { accountId } = await createAccount(ctx, { plan: 'free', credits: 1 });
    await base.apiKey.create({ data: { id: `key_${crypto.randomUUID().replaceAll('-', '')}`, accountId, name: 'second', verifier: crypto.randomUUID(), displayPrefix: 'svc_sk_v1_0000' } });
  }
}, 180_000);

afterAll(async () => {
  await base.$disconnect();
});

async function countQueries(first: number) {
  const source = `query ($first: Int!) { accounts(plan: FREE, first: $first) {
    edges { node { id plan status reserved overageThisMonth balances { trial pack } keys { id name status } } } } }`;
  queries = 0;
  const result = await graphql({ schema, source, variableValues: { first }, contextValue: graphqlContext(ctx, operator) });
  expect(result.errors).toBeUndefined();
  const edges = (result.data as any).accounts.edges;
  expect(edges).toHaveLength(first);
  expect(edges.every((edge: any) => edge.node.keys.length >= 2 && edge.node.balances.trial === 1)).toBe(true);
  return queries;
}

it('a page of 100 accounts with balances and keys is read in a fixed number of queries, the same as a page of 10', async () => {
  const hundred = await countQueries(100);
  const ten = await countQueries(10);
  // the page, then accounts, balances, reservations, overage and keys: one query each
  expect(hundred).toBe(6);
  expect(hundred).toBe(ten);
}, 120_000);
