import { drainRenderGroups, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

export async function drainRenderGroupsTask(payload: TaskPayload<'drain_render_groups'>, { ctx }: TaskHandlerContext) {
  await drainRenderGroups(ctx, { accountId: payload.account_id });
}
