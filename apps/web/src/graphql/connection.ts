import type { ObjectRef } from '@pothos/core';
import { encodeCursor, type Page } from '@svc/core';
import { z } from 'zod';
import { builder, pageSize } from './builder.ts';

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const PageInfo = builder.objectRef<Connection<unknown>['pageInfo']>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Pass as after to read the next page; null on the last page.' }),
  }),
});

/** A Relay-style connection type for nodes of one kind; edges cost nothing beyond the page size the field charges. */
export function connectionType<T>(name: string, node: ObjectRef<any, T>) {
  const Edge = builder.objectRef<Connection<T>['edges'][number]>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: 'Opaque keyset position of this node.' }),
      // the edge holds exactly the node type's backing value
      node: t.field({ type: node, resolve: (edge) => edge.node as never }),
    }),
  });
  return builder.objectRef<Connection<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      edges: t.field({ type: [Edge], complexity: { field: 0, multiplier: 1 }, resolve: (connection) => connection.edges }),
      pageInfo: t.field({ type: PageInfo, resolve: (connection) => connection.pageInfo }),
    }),
  });
}

/** first and after, as every list takes them. */
export function pageArgs(t: PothosArgs) {
  return {
    first: t.arg.int({
      required: true,
      defaultValue: pageSize.default,
      description: `Page size, ${pageSize.min} to ${pageSize.max}.`,
      validate: z.number().int().min(pageSize.min).max(pageSize.max),
    }),
    after: t.arg.string({ required: false, description: 'The endCursor of the previous page.', validate: z.string().max(200) }),
  };
}

/** A connection field's cost: its own 1 plus what each node selects, times the page size asked for. */
export const pageComplexity = (args: { first?: number | null }) => ({ field: 1, multiplier: args.first ?? pageSize.default });

/** A keyset page of records as a connection, each edge's cursor from its creation time and id. */
export async function connectionOf<R extends { id: string; createdAt: Date }, T>(page: Page<R>, toNode: (items: R[]) => Promise<T[]> | T[]): Promise<Connection<T>> {
  const nodes = await toNode(page.items);
  return {
    edges: page.items.map((item, index) => ({ cursor: encodeCursor(item), node: nodes[index] as T })),
    pageInfo: { hasNextPage: page.nextCursor !== null, endCursor: page.nextCursor },
  };
}

type PothosArgs = Parameters<Parameters<typeof builder.queryFields>[0]>[0] extends { arg: infer A } ? { arg: A } : never;
