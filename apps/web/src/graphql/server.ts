import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { startServerAndCreateNextHandler } from '@as-integrations/next';
import { findUnsafeText, unsafeTextDetail } from '@svc/contracts';
import { DomainError } from '@svc/core';
import { serviceContext } from '../http/context.ts';
import type { GraphqlContext } from './context.ts';
import { formatGraphqlError } from './errors.ts';
import { refuseIntrospection } from './introspection.ts';
import { schema } from './schema.ts';

export interface GraphqlRequestContext extends GraphqlContext {
  requestId: string;
}

/** Introspection and the IDE (a landing page on GET) only when SVC_GRAPHQL_IDE=1. */
export const graphqlIdeEnabled = () => serviceContext().config.web.graphqlIde;

/** Every error of a response carries the request's id, as the REST envelope does. */
const requestIdPlugin: ApolloServerPlugin<GraphqlRequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
        response.body.singleResult.errors = response.body.singleResult.errors.map((error) => ({
          ...error,
          extensions: { ...error.extensions, request_id: contextValue.requestId },
        }));
      },
    };
  },
};

/**
 * Arguments holding U+0000 or a lone surrogate are refused before their field resolves, as a
 * REST body is (text-integrity.ts): invalid_request naming the argument's path. The arguments
 * are checked once coerced, so inline literals and variables are treated alike.
 */
const textIntegrityPlugin: ApolloServerPlugin<GraphqlRequestContext> = {
  async requestDidStart() {
    return {
      async executionDidStart() {
        return {
          willResolveField({ args }) {
            const unsafe = findUnsafeText(args);
            if (unsafe !== null) throw new DomainError('invalid_request', { details: [unsafeTextDetail(unsafe)] });
          },
        };
      },
    };
  },
};

/**
 * The Next handler of POST /api/graphql, made once per process. The caller has already
 * authenticated the operator; the context it hands over reaches every resolver.
 */
export function graphqlHandler(contextOf: (request: Request) => GraphqlRequestContext) {
  const server = new ApolloServer<GraphqlRequestContext>({
    schema,
    // the service's own rule refuses introspection (in its own words) while the IDE is off
    introspection: true,
    validationRules: graphqlIdeEnabled() ? [] : [refuseIntrospection],
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError(() => serviceContext().logger),
    plugins: [requestIdPlugin, textIntegrityPlugin, graphqlIdeEnabled() ? ApolloServerPluginLandingPageLocalDefault({ embed: true }) : ApolloServerPluginLandingPageDisabled()],
  });
  return startServerAndCreateNextHandler<Request, GraphqlRequestContext>(server, { context: async (request) => contextOf(request) });
}
