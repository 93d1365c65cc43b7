import { unwrapResolverError } from '@apollo/server/errors';
import { errorBody } from '@svc/contracts';
import { DomainError, type Logger } from '@svc/core';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { transientRefusal } from '../http/handle.ts';

/** Apollo's codes for a request the operator must fix (syntax, unknown field, bad variable). */
const requestCodes = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE', 'PERSISTED_QUERY_NOT_FOUND']);

/** A validation rule of the service's own (refuseIntrospection) refuses with a DomainError inside Apollo's validation error. */
function refusalOf(cause: unknown): unknown {
  if (cause instanceof GraphQLError && cause.extensions.code === 'GRAPHQL_VALIDATION_FAILED' && cause.originalError instanceof DomainError) return cause.originalError;
  return cause;
}

/**
 * Every GraphQL error leaves with a code of the one error table in extensions.code and that
 * code's fixed message and HTTP status, as REST answers it. The operator's own query errors
 * (syntax, unknown fields, variables) keep GraphQL's explanation under invalid_request; the
 * database down or a transaction aborted by a conflict is overloaded with its retry, as REST
 * answers it; anything else unexpected is internal_error, its cause only logged. The request id is added to
 * each error when the response is sent (requestIdPlugin).
 */
export function formatGraphqlError(logger: () => Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    let cause = refusalOf(unwrapResolverError(error));
    // as REST answers them: try again in a moment
    const transient = transientRefusal(cause);
    if (transient) {
      logger().warn(`${transient.what}; answered overloaded`, { error: cause instanceof Error ? cause.message.slice(-300) : String(cause) });
      cause = transient.refusal;
    }
    const where = { ...(formatted.path ? { path: formatted.path } : {}), ...(formatted.locations ? { locations: formatted.locations } : {}) };
    if (cause instanceof DomainError) {
      const { status, body } = errorBody(cause.code, '', cause);
      const { code, message, request_id: _unset, ...rest } = body.error;
      return { message, ...where, extensions: { code, status, ...rest } };
    }
    const apolloCode = formatted.extensions?.code;
    if (typeof apolloCode === 'string' && requestCodes.has(apolloCode)) {
      return { message: formatted.message, ...where, extensions: { code: 'invalid_request', status: 400, graphql_code: apolloCode } };
    }
    logger().error('unhandled error', { error: cause instanceof Error ? cause.stack : String(cause) });
    const { status, body } = errorBody('internal_error', '');
    return { message: body.error.message, ...where, extensions: { code: 'internal_error', status } };
  };
}
