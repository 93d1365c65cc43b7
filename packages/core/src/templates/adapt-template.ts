import type { adaptErrorCodes, CanvasLayout, TemplateAdaptRequest } from '@svc/contracts';
import type { Principal } from '../auth/principal.ts';
import { takeUnbilledRenderTokens } from '../limits/unbilled-renders.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { adaptInBrowser } from './adapt-in-browser.ts';
import { adaptInWorker } from './adapt-in-worker.ts';
import { adaptedSources, markCanvasSource } from './adapt-source-edits.ts';
import { type Canvas, readCanvas } from './canvas.ts';
import { maxSourceBytes } from './check-version-content.ts';
import { takePreviewToken } from './preview-template.ts';

/** One requested size: the adapted source, or why that size could not be adapted. */
export type AdaptedSize = { width: number; height: number } & ({ source: string } | { errorCode: (typeof adaptErrorCodes)[number] });

export interface AdaptTemplateOptions {
  principal: Principal;
  request: TemplateAdaptRequest;
}

/**
 * POST /v1/templates/adapt: deterministic, free, saves nothing, and uses the preview rate
 * limit; the layout runs in a sandbox of the caller's account (adaptSource) and counts as one
 * of the account's unbilled renders (admit-unbilled-render.ts; 429 once they are spent).
 */
export async function adaptTemplate(ctx: ServiceContext, { principal, request }: AdaptTemplateOptions): Promise<AdaptedSize[]> {
  await takePreviewToken(ctx, principal);
  if (Buffer.byteLength(request.source, 'utf8') > maxSourceBytes) {
    throw new DomainError('template_source_limit', { details: [{ field: 'source', reason: 'Use a shorter value.' }] });
  }
  // a canvas is laid out in a worker's browser, for no credit: one unbilled render of the account
  if (readCanvas(request.source).kind === 'canvas') await takeUnbilledRenderTokens(ctx, { accountId: principal.accountId, renders: 1 });
  return adaptSource(ctx, request.source, request.sizes, principal.accountId);
}

/**
 * Adapts a canvas source to each size, laid out and measured in a browser sandbox of `account`
 * (omitted: a sandbox of its own, never reused). A source without a valid svc-canvas meta answers
 * resize_source_unsupported for every size, as does one whose layout loads something the sandbox
 * refuses (its renders would fail the same way); a canvas with neither a page nor a positioned
 * element resize_no_layout. Past ctx.config.adaptTimeoutMs: DomainError resize_timeout.
 *
 * A process with a browser (the worker) lays the source out itself; any other (web) hands it to
 * a worker through an adapt_layout task and waits for the answer, as synchronous renders do.
 */
export async function adaptSource(ctx: ServiceContext, source: string, sizes: { width: number; height: number }[], account?: string): Promise<AdaptedSize[]> {
  const declared = readCanvas(source);
  if (declared.kind !== 'canvas') return sizes.map((size) => ({ width: size.width, height: size.height, errorCode: 'resize_source_unsupported' }));
  const marked = markCanvasSource(source);
  const targets = sizes.map(({ width, height }) => ({ width, height }));
  const outcome =
    ctx.renderEngine.absent
      ? await adaptInWorker(ctx, { marked, targets, account })
      : await adaptInBrowser(ctx, { marked, canvas: declared.canvas, targets, account, timeoutMs: ctx.config.adaptTimeoutMs });
  if ('error' in outcome) {
    if (outcome.error === 'resize_timeout') throw new DomainError('resize_timeout');
    return sizes.map((size) => ({ width: size.width, height: size.height, errorCode: 'resize_source_unsupported' }));
  }
  const sources = adaptedSources(source, declared.canvas, targets, outcome.layouts);
  return sizes.map((size, index) => {
    const adapted = sources[index]!;
    return typeof adapted === 'string' ? { width: size.width, height: size.height, source: adapted } : { width: size.width, height: size.height, errorCode: adapted.error };
  });
}
