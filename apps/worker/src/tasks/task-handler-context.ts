import type { ServiceContext } from '@svc/core';
import type { JobHelpers } from 'graphile-worker';

/** What every task handler receives beside its parsed payload. */
export interface TaskHandlerContext {
  ctx: ServiceContext;
  helpers: JobHelpers;
}
