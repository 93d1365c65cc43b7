import type { adaptErrorCodes, TemplateAdaptRequest } from '@svc/contracts';
import type { Principal } from '../auth/principal.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { adaptCanvasSource } from './adapt-layout.ts';
import { readCanvas } from './canvas.ts';
import { maxSourceBytes } from './check-version-content.ts';
import { takePreviewToken } from './preview-template.ts';

/** Adapting all sizes of one request may take this long; past it, 504 resize_timeout. */
export const adaptTimeMs = 2_000;

/** One requested size: the adapted source, or why that size could not be adapted. */
export type AdaptedSize = { width: number; height: number } & ({ source: string } | { errorCode: (typeof adaptErrorCodes)[number] });

export interface AdaptTemplateOptions {
  principal: Principal;
  request: TemplateAdaptRequest;
}

/**
 * Adapts a canvas template to other canvas sizes: deterministic, free, saves nothing, and
 * uses the preview rate limit. A source without a valid svc-canvas meta answers
 * resize_source_unsupported for every size; one without positioned elements resize_no_layout.
 */
export async function adaptTemplate(ctx: ServiceContext, { principal, request }: AdaptTemplateOptions): Promise<AdaptedSize[]> {
  await takePreviewToken(ctx, principal);
  if (Buffer.byteLength(request.source, 'utf8') > maxSourceBytes) {
    throw new DomainError('template_source_limit', { details: [{ field: 'source', reason: 'Use a shorter value.' }] });
  }
  const declared = readCanvas(request.source);
  const outcomes =
    declared.kind === 'canvas'
      ? adaptCanvasSource(request.source, declared.canvas, request.sizes, { clock: ctx.clock, deadline: ctx.clock().getTime() + adaptTimeMs })
      : request.sizes.map(() => ({ error: 'resize_source_unsupported' as const }));
  return request.sizes.map((size, index) => {
    const outcome = outcomes[index]!;
    return 'source' in outcome ? { width: size.width, height: size.height, source: outcome.source } : { width: size.width, height: size.height, errorCode: outcome.error };
  });
}
