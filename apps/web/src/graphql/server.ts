import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { startServerAndCreateNextHandler } from '@as-integrations/next';
import { serviceContext } from '../http/context.ts';
import type { GraphqlContext } from './context.ts';
import { formatGraphqlError } from './errors.ts';
import { refuseIntrospection } from './introspection.ts';
import { schema } from './schema.ts';

export interface GraphqlRequestContext extends GraphqlContext {
  requestId: string;
}

/** Introspection and the IDE (a landing page on GET) only when SVC_GRAPHQL_IDE=1. */
export const graphqlIdeEnabled = () => process.env.SVC_GRAPHQL_IDE === '1';

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
    plugins: [requestIdPlugin, graphqlIdeEnabled() ? ApolloServerPluginLandingPageLocalDefault({ embed: true }) : ApolloServerPluginLandingPageDisabled()],
  });
  return startServerAndCreateNextHandler<Request, GraphqlRequestContext>(server, { context: async (request) => contextOf(request) });
}
