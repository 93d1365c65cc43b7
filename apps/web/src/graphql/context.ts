import type { OperatorPrincipal, ServiceContext } from '@svc/core';
import { createLoaders, type Loaders } from './loaders.ts';

/** What every resolver receives: the service context, the calling operator, and this request's batch loaders. */
export interface GraphqlContext {
  ctx: ServiceContext;
  operator: OperatorPrincipal;
  loaders: Loaders;
}

export function graphqlContext(ctx: ServiceContext, operator: OperatorPrincipal): GraphqlContext {
  return { ctx, operator, loaders: createLoaders(ctx) };
}
