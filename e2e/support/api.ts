// Black-box helpers: real HTTP against the web process started by the global setup.
import { createAccount, createServiceContext, loadConfig, setAccountStatus, silentLogger } from '@svc/core';
import type { CreateAccountOptions } from '../../packages/core/src/accounts/create-account.ts';
import { createDb, type Db } from '@svc/db';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

let httpDb: Db | undefined;
/** A database client on the web process's database, for arranging state and checking effects. */
export function serviceDb(): Db {
  httpDb ??= createDb({ url: inject('httpDatabaseUrl'), poolSize: 4 });
  return httpDb;
}

export const serviceContext = () => createServiceContext({ db: serviceDb(), logger: silentLogger, config: loadConfig() });

export interface TestAccount {
  accountId: string;
  apiKey: string;
}

/** A new account with one key, as the operator CLI makes it. */
export async function newAccount(options: Partial<CreateAccountOptions> = {}): Promise<TestAccount> {
  return createAccount(serviceContext(), { plan: 'scale', credits: 100, ...options });
}

export async function suspend(accountId: string): Promise<void> {
  await setAccountStatus(serviceContext(), { accountId, suspended: true });
}

/**
 * Empties the account's key's token bucket of a rate limit, two tokens into debt, as a burst
 * would but without racing the refill on a busy machine: the next request must wait.
 */
export async function emptyBucket(limit: string, account: TestAccount): Promise<void> {
  const [key] = await serviceDb().apiKey.findMany({ where: { accountId: account.accountId } });
  await serviceDb().$executeRaw`
    INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES (${`${limit}:key:${key!.id}`}, -2, now())
    ON CONFLICT (key) DO UPDATE SET tokens = -2, updated_at = now()`;
}

export interface ApiRequest {
  method?: string;
  key?: string | null;
  body?: unknown;
  /** Raw body text, sent as is. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Calls the web process started by the global setup. */
export function api<T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  return apiAt<T>(baseUrl(), path, request);
}

/** Calls a service at any base URL (tests that start their own web process). */
export async function apiAt<T = any>(base: string, path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.key) headers.authorization = `Bearer ${request.key}`;
  let body: string | undefined = request.rawBody;
  if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method: request.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the test reads text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts the one error envelope: status, code, fixed message, request id equal to the header. */
export function expectError(response: ApiResponse, status: number, code: string) {
  const requestId = response.headers.get('x-request-id');
  const problems: string[] = [];
  if (response.status !== status) problems.push(`status ${response.status} != ${status}`);
  const error = (response.body as any)?.error;
  if (!error) problems.push(`no error envelope in ${response.text.slice(0, 200)}`);
  else {
    if (error.code !== code) problems.push(`code ${error.code} != ${code}`);
    if (typeof error.message !== 'string' || error.message.length === 0) problems.push('message missing');
    if (!requestId || !uuid.test(requestId)) problems.push(`x-request-id ${requestId} is not a UUID`);
    if (error.request_id !== requestId) problems.push('request_id differs from x-request-id');
    const extra = Object.keys(error).filter((key) => !['code', 'message', 'request_id', 'details', 'retry', 'plan_limit'].includes(key));
    if (extra.length) problems.push(`unexpected envelope fields ${extra.join(',')}`);
  }
  if (problems.length) throw new Error(`error envelope check failed: ${problems.join('; ')}`);
  return error as { code: string; message: string; request_id: string; details?: { field: string; reason: string }[]; retry?: { retry_after_seconds: number } };
}

export { uuid as uuidPattern };
