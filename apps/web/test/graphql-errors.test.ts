// How GraphQL errors leave: in the one error table's codes, as REST answers them. A database
// outage or a transaction PostgreSQL aborted for a conflict is overloaded with its retry (the
// operator sends the operation again), not internal_error.
import { describe, expect, it } from 'vitest';
import type { Logger } from '@svc/core';
import { formatGraphqlError } from '../src/graphql/errors.ts';

const logged: string[] = [];
const logger = { info: () => {}, warn: (message: string) => logged.push(`warn ${message}`), error: (message: string) => logged.push(`error ${message}`) } as unknown as Logger;
const format = formatGraphqlError(() => logger);
/**
 * A resolver's failure as the formatter meets it once Apollo's unwrapResolverError has taken it
 * out of its GraphQLError (a GraphQLError made here could be another copy of the class than
 * Apollo's, which would not unwrap).
 */
const fromResolver = (cause: Error) => cause;

describe('GraphQL errors', () => {
  it('answers a deadlock or a serialization failure as overloaded, retry after a second', () => {
    for (const state of ['40P01', '40001']) {
      const error = fromResolver(Object.assign(new Error('deadlock detected'), { code: state }));
      expect(format({ message: error.message, path: ['renders'] }, error)).toEqual({
        message: expect.any(String),
        path: ['renders'],
        extensions: { code: 'overloaded', status: 503, retry: { retry_after_seconds: 1 } },
      });
    }
  });

  it('answers the database shutting down as overloaded, retry after two seconds', () => {
    const error = fromResolver(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    expect(format({ message: error.message }, error).extensions).toEqual({ code: 'overloaded', status: 503, retry: { retry_after_seconds: 2 } });
  });

  it('answers anything else unexpected as internal_error, its cause only logged', () => {
    logged.length = 0;
    const error = fromResolver(Object.assign(new Error('syntax error at or near'), { code: '42601' }));
    const formatted = format({ message: error.message }, error);
    expect(formatted.extensions).toEqual({ code: 'internal_error', status: 500 });
    expect(formatted.message).not.toContain('syntax');
    expect(logged).toEqual(['error unhandled error']);
  });
});
