import { pruneAuthRecords, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

export async function pruneAuthRecordsTask(_payload: TaskPayload<'prune_auth_records'>, { ctx }: TaskHandlerContext) {
  const pruned = await pruneAuthRecords(ctx);
  if (pruned.sessions + pruned.links > 0) ctx.logger.info('ended sessions and expired links pruned', pruned);
}
