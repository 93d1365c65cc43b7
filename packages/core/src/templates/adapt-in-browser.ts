import { type CanvasLayout, isRenderError } from '@svc/contracts';
import { accountAssetResolver } from '../assets/captured-asset-resolver.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { Canvas } from './canvas.ts';

/** What adapting answers: one layout per target, or why there is none. */
export type AdaptOutcome = { layouts: CanvasLayout[] } | { error: 'resize_timeout' | 'resize_source_unsupported' };

export interface AdaptInBrowserOptions {
  marked: string;
  canvas: Canvas;
  targets: Canvas[];
  account?: string;
  timeoutMs: number;
}

/**
 * Adapts a marked canvas source in this process's engine, which lays it out and measures it: in
 * a sandbox of the account, script off (an adapt request has no javascript option and a source
 * cannot turn script on), network blocked, the account's own assets served. A timeout answers resize_timeout; a
 * load the sandbox refuses (a URL, a foreign asset) resize_source_unsupported, as the source's
 * renders would fail too.
 */
export async function adaptInBrowser(ctx: ServiceContext, options: AdaptInBrowserOptions): Promise<AdaptOutcome> {
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
    ctx.metrics.adaptSizes.inc({ outcome: 'laid_out' }, options.targets.length);
    return { layouts };
  } catch (error) {
    ctx.metrics.adaptSizes.inc({ outcome: 'failed' }, options.targets.length);
    if (!isRenderError(error)) throw error;
    if (error.category === 'timeout') return { error: 'resize_timeout' };
    ctx.logger.warn('adapt layout failed', { category: error.category, code: error.code, error: error.message });
    if (error.category === 'unsafe_asset' || error.category === 'invalid_input') return { error: 'resize_source_unsupported' };
    throw error;
  }
}
