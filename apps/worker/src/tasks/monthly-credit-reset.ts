import { resetMonthlyCredits, type TaskPayload } from '@svc/core';
import type { TaskHandlerContext } from './task-handler-context.ts';

/** Cron task: refills monthly credit buckets for the month the schedule fired in. */
export async function monthlyCreditReset(payload: TaskPayload<'monthly_credit_reset'>, { ctx }: TaskHandlerContext) {
  const at = payload._cron ? new Date(payload._cron.ts) : ctx.clock();
  await resetMonthlyCredits(ctx, { at });
}
