import { runAdaptRequest, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

export async function adaptLayoutTask(payload: TaskPayload<'adapt_layout'>, { ctx }: TaskHandlerContext) {
  await runAdaptRequest(ctx, { adaptId: payload.adapt_id });
}
