import { errorBody } from '@svc/contracts';
import type { ErrorCode } from '@svc/contracts';

/** A GraphQL request's body is read up to this size; a query that needs more is not an operator's. */
export const maxGraphqlBodyBytes = 64 * 1024;

const headers = (requestId: string) => ({ 'x-request-id': requestId, 'cache-control': 'no-store' });

/** The answer to a request without a valid operator token: HTTP 401, one GraphQL error, code UNAUTHENTICATED. */
export function unauthenticated(requestId: string): Response {
  const body = {
    errors: [{ message: 'A valid operator token is required.', extensions: { code: 'UNAUTHENTICATED', status: 401, request_id: requestId } }],
  };
  return Response.json(body, { status: 401, headers: { ...headers(requestId), 'www-authenticate': 'Bearer realm="operators"' } });
}

/** A request refused before GraphQL reads it (an oversized body): the code's status, one GraphQL error. */
export function refused(code: ErrorCode, requestId: string): Response {
  const { status, body } = errorBody(code, requestId);
  return Response.json({ errors: [{ message: body.error.message, extensions: { code, status, request_id: requestId } }] }, { status, headers: headers(requestId) });
}
