import { expireRenderFiles, makeRenderThumbnail, recoverStaleRenders, releaseLostTaskLocks, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

/** Each minute: tasks locked by workers that are gone go back to the queue, then renders whose lease ran out. */
export async function recoverStaleRendersTask(_payload: TaskPayload<'recover_stale_renders'>, { ctx }: TaskHandlerContext) {
  await releaseLostTaskLocks(ctx);
  await recoverStaleRenders(ctx);
}

export async function expireRenderFilesTask(_payload: TaskPayload<'expire_render_files'>, { ctx }: TaskHandlerContext) {
  const expired = await expireRenderFiles(ctx);
  if (expired > 0) ctx.logger.info('render files expired', { expired });
}

/** After a PDF succeeded: its first page, small, beside the file for the dashboard's history. */
export async function renderThumbnailTask(payload: TaskPayload<'render_thumbnail'>, { ctx }: TaskHandlerContext) {
  await makeRenderThumbnail(ctx, { jobId: payload.job_id });
}
