import { randomUUID } from 'node:crypto';
import { errorBody, fieldDetailsFromIssues, hasUnsafeText, type Operation, type OperationId, unsafeTextDetail } from '@svc/contracts';
import { isDatabaseUnavailable, isTransientConflict } from '@svc/db';
import { createLogger, DomainError, notFound, type Principal, type ServiceContext, type SessionPrincipal } from '@svc/core';
import type { ApiAnswer, ApiRequest } from './api-request.ts';
import { authenticate } from './authenticate.ts';
import type { z } from 'zod';
import { serviceContext } from './context.ts';
import { type RawUpload, readJsonBody, readRawBody } from './request-body.ts';

/** How soon a client may retry while the database is unavailable: a restart takes seconds. */
const databaseRetrySeconds = 2;
/** How soon a client may send a request again whose transaction lost a conflict with another. */
const conflictRetrySeconds = 1;

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface HandlerInput<Op extends Operation> {
  ctx: ServiceContext;
  principal: Op['auth'] extends 'none' ? null : Op['auth'] extends 'session' ? SessionPrincipal : Principal;
  params: Infer<Op['params']>;
  query: Infer<Op['query']>;
  body: Op['body'] extends { schema: infer S } ? Infer<S> : undefined;
  /** The raw bytes and declared type of an upload route's body. */
  upload: Op['rawBody'] extends object ? RawUpload : undefined;
  /** The Idempotency-Key header, for an operation that takes one (null without it). */
  idempotencyKey: string | null;
  request: ApiRequest;
  requestId: string;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A binary body (downloads), sent as is with the given headers. */
  stream?: ReadableStream<Uint8Array>;
}

/**
 * What answers one operation: the operation it serves, and its answer to a request whose path
 * the route table matched (the path parameters come from that match).
 */
export interface OperationHandler<Id extends string = string> {
  readonly operation: Operation & { readonly operationId: Id };
  readonly answer: (request: ApiRequest, params: Record<string, string>) => Promise<ApiAnswer>;
}

/** Handlers by operation id; the /v1 table is one of these with every id of the catalog. */
export type OperationHandlers<Id extends string = OperationId> = { readonly [K in Id]: OperationHandler<K> };

/**
 * Adapts one contract operation to its handler: authenticate, parse the path parameters,
 * query and body with the operation's schemas, run the use-case, shape the answer with the
 * response schema, and turn any failure into the error envelope.
 */
export function handle<Op extends Operation>(operation: Op, run: (input: HandlerInput<Op>) => Promise<HandlerResult>): OperationHandler<Op['operationId']> {
  const answer = async (request: ApiRequest, pathParameters: Record<string, string>): Promise<ApiAnswer> => {
    const requestId = request.headers.get('x-request-id') ?? randomUUID();
    let ctx: ServiceContext | undefined;
    try {
      ctx = serviceContext();
      const principal = await authenticate(ctx, operation.auth, request);
      if (operation.sameOrigin && request.headers.get('origin') !== new URL(ctx.config.publicUrl).origin) {
        throw new DomainError('cross_origin_rejected');
      }
      const params = operation.params ? pathParams(operation.params, pathParameters) : undefined;
      const query = operation.query ? parse(operation.query, queryObject(request.url)) : undefined;
      const body = operation.body ? await parseBody(operation.body, request) : undefined;
      const raw = operation.rawBody;
      const upload = raw
        ? await readRawBody(request, raw.maxBytes, () => new DomainError(raw.tooLargeCode, { details: [{ field: 'body.too_large', reason: 'invalid value' }] }))
        : undefined;
      const idempotencyKey = operation.idempotencyKey ? request.headers.get('idempotency-key') : null;
      const result = await run({ ctx, principal, params, query, body, upload, idempotencyKey, request, requestId } as HandlerInput<Op>);
      if (result.stream) return { status: result.status, headers: { 'x-request-id': requestId, ...result.headers }, body: result.stream };
      const schema = operation.responses[result.status]?.schema;
      const payload = schema && result.body !== undefined ? schema.parse(result.body) : result.body;
      return respond(result.status, payload, requestId, result.headers);
    } catch (error) {
      return errorResponse(unavailableAsOverloaded(error, requestId, ctx), requestId, ctx);
    }
  };
  return { operation, answer };
}

/**
 * One answer for each role of a kind's operations (create, get ...); given the union of the
 * kinds, answers written once for all of them (the roles are not mapped one kind at a time).
 */
export type KindAnswers<Ops extends Record<string, Operation>> = { [Role in Extract<keyof Ops, string>]: (input: HandlerInput<Ops[Role]>) => Promise<HandlerResult> };

/**
 * The handlers of one kind's operations (the PDF or image renders, one group kind), each
 * answered by the answer of its role and keyed by the operation's own id.
 */
export function handleKind<Ops extends Record<string, Operation>>(operations: Ops, answers: NoInfer<KindAnswers<Ops>>): KindHandlers<Ops> {
  const run = answers as Record<string, (input: HandlerInput<Operation>) => Promise<HandlerResult>>;
  const handlers = Object.entries(operations).map(([role, operation]) => [operation.operationId, handle(operation, run[role]!)]);
  return Object.fromEntries(handlers) as KindHandlers<Ops>;
}

type KindHandlers<Ops extends Record<string, Operation>> = { [Role in keyof Ops as Ops[Role]['operationId']]: OperationHandler<Ops[Role]['operationId']> };

/**
 * The database down or restarting answers 503 overloaded with Retry-After on every route (one of
 * the codes all routes share), rather than 500: the client sends again (with its
 * Idempotency-Key where it has one) once it is back. So does a transaction PostgreSQL aborted to
 * break a deadlock or a serialization conflict with another: nothing of it was kept, and the
 * same request may pass a moment later.
 */
function unavailableAsOverloaded(error: unknown, requestId: string, ctx?: ServiceContext): unknown {
  const transient = transientRefusal(error);
  if (!transient) return error;
  (ctx?.logger ?? createLogger('web')).warn(`${transient.what}; answered overloaded`, { requestId, error: error instanceof Error ? error.message.slice(-300) : String(error) });
  return transient.refusal;
}

/** A database outage or a transaction that lost a conflict, as the overloaded refusal that a client answers by sending again; null for any other error. */
export function transientRefusal(error: unknown): { refusal: DomainError; what: string } | null {
  if (isDatabaseUnavailable(error)) return { refusal: new DomainError('overloaded', { retryAfterSeconds: databaseRetrySeconds }), what: 'database unavailable' };
  if (isTransientConflict(error)) return { refusal: new DomainError('overloaded', { retryAfterSeconds: conflictRetrySeconds }), what: 'transaction aborted by a conflict' };
  return null;
}

/** Path parameters checked by the contract; a malformed id names no resource, so it is not found. */
function pathParams<T extends z.ZodType>(schema: T, raw: Record<string, string>): z.output<T> {
  const result = schema.safeParse(raw);
  if (!result.success) throw notFound();
  return result.data;
}

/** The JSON body by the operation's schema; an operation may answer its own code for a bad body (testimonial_invalid). */
async function parseBody(body: NonNullable<Operation['body']>, request: ApiRequest): Promise<unknown> {
  // an operation whose empty body has a meaning (apply: save true) takes a request without one;
  // anything else without a content type is refused as readJsonBody refuses it
  if (body.emptyBody !== undefined && request.headers.get('content-type') === null && Number(request.headers.get('content-length') ?? 0) === 0) {
    const bytes = await request.body(body.maxBytes, () => new DomainError('request_too_large'));
    if (bytes.byteLength === 0) return parse(body.schema, body.emptyBody);
  }
  try {
    return parse(body.schema, await readJsonBody(request, body.maxBytes));
  } catch (error) {
    if (body.invalidCode && error instanceof DomainError && error.code === 'invalid_request') {
      throw new DomainError(body.invalidCode, { details: error.details });
    }
    throw error;
  }
}

function parse<T extends z.ZodType>(schema: T, input: unknown, root?: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new DomainError('invalid_request', { details: fieldDetailsFromIssues(result.error.issues, input, root) });
}

/**
 * Query parameters as an object; a parameter given twice is refused rather than guessed at, and
 * so is one holding U+0000 (a search or reference text could not be stored or matched).
 */
function queryObject(url: string): Record<string, string> {
  const params = new URL(url).searchParams;
  const query: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in query) throw new DomainError('invalid_request', { details: [{ field: key.slice(0, 260), reason: 'invalid value' }] });
    if (hasUnsafeText(key) || hasUnsafeText(value)) throw new DomainError('invalid_request', { details: [unsafeTextDetail([key])] });
    query[key] = value;
  }
  return query;
}

export function respond(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): ApiAnswer {
  const head = { 'x-request-id': requestId, 'cache-control': 'no-store', ...headers };
  if (body === undefined || status === 204) return { status, headers: head };
  return { status, headers: { 'content-type': 'application/json', ...head }, body: JSON.stringify(body) };
}

export function errorResponse(error: unknown, requestId: string, ctx?: ServiceContext): ApiAnswer {
  if (error instanceof DomainError) {
    const { status, body } = errorBody(error.code, requestId, error);
    const headers: Record<string, string> = body.error.retry ? { 'retry-after': String(body.error.retry.retry_after_seconds) } : {};
    return respond(status, body, requestId, headers);
  }
  // the cause is logged for operators; the client sees only the generic answer
  (ctx?.logger ?? createLogger('web')).error('unhandled error', { requestId, error: error instanceof Error ? error.stack : String(error) });
  const { status, body } = errorBody('internal_error', requestId);
  return respond(status, body, requestId);
}
