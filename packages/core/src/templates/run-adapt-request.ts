import { accountAssetResolver } from '../assets/captured-asset-resolver.ts';
import { isRenderError } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { renderFinishedChannel } from '../renders/completion-waiter.ts';
import type { AdaptLayoutResult } from './adapt-template.ts';
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

export interface LayOutCanvasOptions {
  marked: string;
  canvas: Canvas;
  targets: Canvas[];
  account?: string;
  timeoutMs: number;
}

/**
 * The browser layout of a marked canvas source in this process's engine: in a sandbox of the
 * account, script off (an adapt request has no javascript option and a source cannot turn script
 * on), network blocked, the account's own assets served. A timeout answers resize_timeout; a
 * load the sandbox refuses (a URL, a foreign asset) resize_source_unsupported, as the source's
 * renders would fail too.
 */
export async function layOutCanvas(ctx: ServiceContext, options: LayOutCanvasOptions): Promise<AdaptLayoutResult> {
  try {
    const layouts = await ctx.renderEngine.adaptCanvas({
      account: options.account,
      html: options.marked,
      canvas: options.canvas,
      targets: options.targets,
      javascript: 'disabled',
      assets: accountAssetResolver(ctx, options.account),
      timeoutMs: options.timeoutMs,
    });
    return { layouts };
  } catch (error) {
    if (!isRenderError(error)) throw error;
    if (error.category === 'timeout') return { error: 'resize_timeout' };
    ctx.logger.warn('adapt layout failed', { category: error.category, code: error.code, error: error.message });
    if (error.category === 'unsafe_asset' || error.category === 'invalid_input') return { error: 'resize_source_unsupported' };
    throw error;
  }
}
