// The internal GraphQL API over real HTTP, with operator tokens made as the CLI makes them.
import { createOperatorToken } from '@svc/core';
import { expect } from 'vitest';
import { api, type ApiResponse, serviceContext } from './api.ts';

/** A new operator token (the secret), named after the test that uses it. */
export async function operatorToken(name = 'e2e operator'): Promise<string> {
  return (await createOperatorToken(serviceContext(), { name })).token;
}

export interface GraphqlRequest {
  token?: string | null;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** POST /api/graphql with the token as a bearer credential. */
export function gql<T = any>(query: string, request: GraphqlRequest = {}): Promise<ApiResponse<{ data?: T; errors?: any[] }>> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  return api('/api/graphql', { method: 'POST', headers, body: { query, variables: request.variables ?? {} } });
}

/** The data of an answer that must have no errors. */
export async function gqlData<T = any>(query: string, request: GraphqlRequest): Promise<T> {
  const response = await gql<T>(query, request);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  expect(response.status).toBe(200);
  return response.body.data as T;
}

/** The one error of an answer, with its code from the error table. */
export async function gqlError(query: string, request: GraphqlRequest, code: string): Promise<any> {
  const response = await gql(query, request);
  expect(response.body.errors?.map((error: any) => error.extensions?.code), response.text.slice(0, 500)).toEqual([code]);
  return response.body.errors![0];
}

/** The 401 every request without a valid operator token gets. */
export function expectUnauthenticated(response: ApiResponse<any>) {
  expect(response.status).toBe(401);
  expect(response.body.data).toBeUndefined();
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0]).toMatchObject({ message: 'A valid operator token is required.', extensions: { code: 'UNAUTHENTICATED' } });
}

/** A REST value as the schema's enums name it: upper case, _ for any other character (image/png -> IMAGE_PNG). */
export function upper(value: string): string;
export function upper(value: string | null): string | null;
export function upper(value: string | null): string | null {
  return value === null ? null : value.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
}

/** REST's snake_case fields under GraphQL's camelCase names. */
export function camel(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()), field]));
}
