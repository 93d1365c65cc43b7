import type { z } from 'zod';
import { templateErrorCodes } from '@svc/rules';
import type { ErrorCode } from './errors.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationResponse {
  description: string;
  /** Response body; omitted for bodiless answers (204) and binary downloads. */
  schema?: z.ZodType;
  contentType?: string;
  /** A binary body of one of these media types (image bytes); described without a schema. */
  mediaTypes?: readonly string[];
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

export type OperationAuth = 'bearer' | 'bearer_or_session' | 'session' | 'none';

/** The session cookie (the contract's authentication rules). __Host-: Secure, Path=/ and no Domain, so no other site or subdomain can set it. */
export const sessionCookieName = '__Host-svc_session';
export const csrfHeaderName = 'x-csrf-token';

export interface JsonBody {
  schema: z.ZodType;
  /** Largest accepted body in bytes (413 request_too_large above it). */
  maxBytes: number;
  /** The code of a body that does not parse or fails the schema (default invalid_request). */
  invalidCode?: ErrorCode;
  /** What a request without a body (no Content-Type, no bytes) stands for; unset, such a request is refused. */
  emptyBody?: unknown;
  /**
   * A body that works as sent: published as the request's example, which reference pages put in
   * their copyable requests (the schema alone would give them empty strings). e2e/openapi.test.ts
   * parses each with its schema.
   */
  example?: unknown;
}

/** A request body of raw bytes (uploads), not JSON. */
export interface RawBody {
  /** The media types the route accepts; the operation's use-case checks the declared type. */
  mediaTypes: readonly string[];
  /** Largest accepted body in bytes; above it the route answers tooLargeCode (413). */
  maxBytes: number;
  tooLargeCode: ErrorCode;
}

/**
 * One API operation: everything the route adapter validates and everything the
 * published contract says, kept together so the two cannot drift.
 */
export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. /v1/keys/{key_id}. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * Who may call (the contract's authentication rules): `bearer` an API key only (a session cookie is ignored);
   * `bearer_or_session` an API key or the browser session cookie (a request with both uses
   * the key); `session` the browser session cookie only; `none` anyone. Every write made
   * with the cookie also needs the session's x-csrf-token.
   */
  auth: OperationAuth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: JsonBody;
  rawBody?: RawBody;
  /**
   * Only from the service's own browser pages: the Origin header must equal SVC_PUBLIC_URL's
   * origin (403 cross_origin_rejected), checked before the body is read.
   */
  sameOrigin?: boolean;
  idempotencyKey?: 'optional' | 'required';
  responses: Record<number, OperationResponse>;
  /** Error codes this operation can answer with, beyond the ones every route shares. */
  errors: readonly ErrorCode[];
}

export function defineOperation<const T extends Operation>(operation: T): T {
  return operation;
}

/**
 * Codes any route can answer with (the general rules of the contract's endpoints); overloaded
 * with Retry-After while the database is unavailable or after a transaction it aborted for a
 * conflict, which kept nothing.
 */
export const commonErrors: readonly ErrorCode[] = ['method_not_allowed', 'request_headers_too_large', 'internal_error', 'overloaded'];
/** Codes any authenticated route can answer with (the contract's authentication rules). */
export const authErrors: readonly ErrorCode[] = ['unauthorized', 'account_suspended'];
/** Codes of the session cookie: an ended session, and a write without the session's CSRF token. */
export const sessionErrors: readonly ErrorCode[] = ['signed_out', 'csrf_rejected'];

/** The codes an operation's authentication can answer with. */
export function authErrorsOf(auth: OperationAuth): readonly ErrorCode[] {
  switch (auth) {
    case 'bearer':
      return authErrors;
    case 'bearer_or_session':
      return [...authErrors, ...sessionErrors];
    case 'session':
      return sessionErrors;
    case 'none':
      return [];
  }
}
/** Codes of a route with a JSON body. */
export const jsonBodyErrors: readonly ErrorCode[] = ['invalid_request', 'request_too_large', 'unsupported_media_type'];

/** Codes of the template sandbox when a source is checked or evaluated (the list lives in @svc/rules). */
export const templateEvaluationErrors: readonly ErrorCode[] = templateErrorCodes satisfies readonly ErrorCode[];
