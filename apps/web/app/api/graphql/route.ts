import { randomUUID } from 'node:crypto';
import { authenticateOperator, DomainError, type OperatorPrincipal } from '@svc/core';
import { serviceContext } from '../../../src/http/context.ts';
import { graphqlContext } from '../../../src/graphql/context.ts';
import { maxGraphqlBodyBytes, refused, unauthenticated } from '../../../src/graphql/refusals.ts';
import { webApiRequest } from '../../../src/http/api-request.ts';
import { readRawBody } from '../../../src/http/request-body.ts';
import { graphqlHandler, graphqlIdeEnabled, type GraphqlRequestContext } from '../../../src/graphql/server.ts';

// the operator each request authenticated as, handed from the route to Apollo's context
const operators = new WeakMap<Request, { operator: OperatorPrincipal; requestId: string }>();

let handler: ReturnType<typeof graphqlHandler> | undefined;
function apollo() {
  handler ??= graphqlHandler((request): GraphqlRequestContext => {
    const caller = operators.get(request);
    if (!caller) throw new Error('request reached GraphQL unauthenticated');
    return { ...graphqlContext(serviceContext(), caller.operator), requestId: caller.requestId };
  });
  return handler;
}

/** The internal GraphQL API: operator tokens only; API keys, session cookies and anything else answer 401 UNAUTHENTICATED. */
export async function POST(request: Request): Promise<Response> {
  const requestId = request.headers.get('x-request-id') ?? randomUUID();
  const operator = await authenticateOperator(serviceContext(), request.headers.get('authorization'));
  if (!operator) return unauthenticated(requestId);
  // the body is read here, bounded, and handed on: Apollo itself would read any length
  let bounded: Request;
  try {
    const { bytes } = await readRawBody(webApiRequest(request), maxGraphqlBodyBytes, () => new DomainError('request_too_large'));
    bounded = new Request(request.url, { method: 'POST', headers: request.headers, body: Buffer.from(bytes).toString('utf8') });
  } catch (error) {
    if (error instanceof DomainError) return refused(error.code, requestId);
    throw error;
  }
  operators.set(bounded, { operator, requestId });
  const response = await apollo()(bounded);
  response.headers.set('x-request-id', requestId);
  response.headers.set('cache-control', 'no-store');
  return response;
}

/** The IDE's page, only with SVC_GRAPHQL_IDE=1; queries always go by POST. */
export async function GET(request: Request): Promise<Response> {
  if (!graphqlIdeEnabled()) return new Response(null, { status: 405, headers: { allow: 'POST' } });
  return apollo()(request);
}
