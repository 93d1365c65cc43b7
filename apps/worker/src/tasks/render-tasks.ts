import { expireRenderFiles, recoverStaleRenders, runRenderJob, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from '../task-list.ts';

export async function renderJobTask(payload: TaskPayload<'render_job'>, { ctx }: TaskHandlerContext) {
  await runRenderJob(ctx, { jobId: payload.job_id });
}

export async function recoverStaleRendersTask(_payload: TaskPayload<'recover_stale_renders'>, { ctx }: TaskHandlerContext) {
  await recoverStaleRenders(ctx);
}

export async function expireRenderFilesTask(_payload: TaskPayload<'expire_render_files'>, { ctx }: TaskHandlerContext) {
  const expired = await expireRenderFiles(ctx);
  if (expired > 0) ctx.logger.info('render files expired', { expired });
}
