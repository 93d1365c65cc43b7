import type { TemplatePreviewRequest } from '@svc/contracts';
import type { Caller } from '../auth/authenticate-api-key.ts';
import { takeToken, type TokenBucket } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { maxSourceBytes } from './check-version-content.ts';
import { compileDataSchema, validateData } from './data-schema.ts';
import { checkDataLimits, evaluateSource } from './evaluate-source.ts';

/** Preview and adapt share one bucket per key: four per second with an idle burst of twenty. */
export const templatePreviewRate: TokenBucket = { rate: 4, burst: 20 };

export async function takePreviewToken(ctx: ServiceContext, caller: Caller): Promise<void> {
  await takeToken(ctx.db, `template-preview:${caller.keyId}`, templatePreviewRate, ctx.clock());
}

export interface PreviewTemplateOptions {
  caller: Caller;
  request: TemplatePreviewRequest;
}

/**
 * Evaluates a source with data and returns the HTML: saves nothing, renders nothing, spends
 * nothing. The token is taken first, because it is what bounds the evaluation work; then the
 * optional schema (saved-template rules), the data limits, the data against the schema, and
 * the sandbox evaluation.
 */
export async function previewTemplate(ctx: ServiceContext, { caller, request }: PreviewTemplateOptions): Promise<{ html: string }> {
  await takePreviewToken(ctx, caller);
  // brand kits are owned resources; until an account owns one, any id is not found
  if (request.brand_kit_id) throw notFound();
  if (Buffer.byteLength(request.source, 'utf8') > maxSourceBytes) {
    throw new DomainError('template_source_limit', { details: [{ field: 'source', reason: 'Use a shorter value.' }] });
  }
  const validator = compileDataSchema(request.schema ?? null);
  await checkDataLimits(request.data);
  validateData(validator, request.data);
  return { html: await evaluateSource(request.source, request.data, 'source') };
}
