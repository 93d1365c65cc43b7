// Adapting in a worker's browser, for a process without one (the web process): the web side
// queues an adapt request (adaptInWorker) and waits; the worker answers it (runAdaptRequest).
import { enqueue } from '../tasks/enqueue.ts';
import { adaptAnsweredChannel } from '../ports/completion-waiter.ts';
import type { ServiceContext } from '../shared/context.ts';
import { newId } from '../shared/ids.ts';
import { adaptInBrowser, type AdaptOutcome } from './adapt-in-browser.ts';
import { type Canvas, readCanvas } from './canvas.ts';

/** Rows whose request gave up longer ago than this were left by a web process that died. */
const abandonedAfterMs = 60_000;

export interface RunAdaptRequestOptions {
  adaptId: string;
}

/**
 * Worker side of an adapt request (adapt_layout task): lays the marked source out in the
 * account's sandbox within what is left of the request's deadline, stores the answer and wakes
 * the waiting request. A request already answered, given up or gone is left alone, so a second
 * delivery of the task does nothing.
 */
export async function runAdaptRequest(ctx: ServiceContext, { adaptId }: RunAdaptRequestOptions): Promise<void> {
  const now = ctx.clock();
  await ctx.db.adaptRequest.deleteMany({ where: { deadline: { lt: new Date(now.getTime() - abandonedAfterMs) } } });
  const request = await ctx.db.adaptRequest.findUnique({ where: { id: adaptId } });
  if (!request || request.result !== null || request.deadline <= now) return;
  const declared = readCanvas(request.source);
  const result: AdaptOutcome =
    declared.kind === 'canvas'
      ? await adaptInBrowser(ctx, {
          marked: request.source,
          canvas: declared.canvas,
          targets: request.sizes as unknown as Canvas[],
          account: request.accountId ?? undefined,
          timeoutMs: request.deadline.getTime() - now.getTime(),
        })
      : { error: 'resize_source_unsupported' };
  await ctx.db.$transaction(async (tx) => {
    const stored = await tx.$executeRaw`UPDATE adapt_requests SET result = ${JSON.stringify(result)}::jsonb WHERE id = ${adaptId} AND result IS NULL`;
    if (stored > 0) await tx.$executeRaw`SELECT pg_notify(${adaptAnsweredChannel}, ${adaptId})`;
  });
}

/**
 * Hands the marked source to a worker (an adapt_requests row and an interactive adapt_layout
 * task, one transaction) and waits for its NOTIFY until the deadline. The row goes whatever the
 * outcome, so nothing of the request is kept.
 */
export async function adaptInWorker(ctx: ServiceContext, input: { marked: string; targets: Canvas[]; account?: string }): Promise<AdaptOutcome> {
  const id = newId('adapt_');
  const now = ctx.clock();
  await ctx.db.$transaction(async (tx) => {
    const deadline = new Date(now.getTime() + ctx.config.adaptTimeoutMs);
    await tx.$executeRaw`
      INSERT INTO adapt_requests (id, account_id, source, sizes, deadline, created_at)
      VALUES (${id}, ${input.account ?? null}, ${input.marked}, ${JSON.stringify(input.targets)}::jsonb, ${deadline}, ${now})`;
    await enqueue(tx, 'adapt_layout', { adapt_id: id }, { jobKey: `adapt:${id}` });
  });
  const answered = async () => (await ctx.db.adaptRequest.findUnique({ where: { id }, select: { result: true } }))?.result ?? null;
  try {
    await ctx.completions.waitForAdapt(id, ctx.config.adaptTimeoutMs, async () => (await answered()) !== null);
    const result = await answered();
    return result === null ? { error: 'resize_timeout' } : (result as AdaptOutcome);
  } finally {
    await ctx.db.adaptRequest.deleteMany({ where: { id } });
    // a task still queued finds no row and ends at once
    await ctx.db.$executeRaw`SELECT graphile_worker.remove_job(${`adapt:${id}`})`.catch(() => undefined);
  }
}
