import type { ServiceContext } from '../shared/context.ts';
import { renderFinishedChannel } from '../ports/completion-waiter.ts';
import { type Canvas, readCanvas } from './canvas.ts';
import { type AdaptLayoutResult, layOutCanvas } from './lay-out-canvas.ts';

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
  const result: AdaptLayoutResult =
    declared.kind === 'canvas'
      ? await layOutCanvas(ctx, {
          marked: request.source,
          canvas: declared.canvas,
          targets: request.sizes as unknown as Canvas[],
          account: request.accountId ?? undefined,
          timeoutMs: request.deadline.getTime() - now.getTime(),
        })
      : { error: 'resize_source_unsupported' };
  await ctx.db.$transaction(async (tx) => {
    const stored = await tx.$executeRaw`UPDATE adapt_requests SET result = ${JSON.stringify(result)}::jsonb WHERE id = ${adaptId} AND result IS NULL`;
    if (stored > 0) await tx.$executeRaw`SELECT pg_notify(${renderFinishedChannel}, ${adaptId})`;
  });
}
