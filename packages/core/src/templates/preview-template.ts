import type { TemplatePreviewRequest } from '@svc/contracts';
import { checkAssetReferences } from '../assets/asset-references.ts';
import { type Principal, principalSubject } from '../auth/principal.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { selectBrandValues } from './brand-values.ts';
import { DomainError } from '../shared/errors.ts';
import { maxSourceBytes } from './check-version-content.ts';
import { evaluateTemplateData } from './evaluate-source.ts';

/** Preview and adapt share one bucket per principal. */
export async function takePreviewToken(ctx: ServiceContext, principal: Principal): Promise<void> {
  await takeRateToken(ctx.db, 'template_preview', principalSubject(principal), ctx.clock());
}

export interface PreviewTemplateOptions {
  principal: Principal;
  request: TemplatePreviewRequest;
}

/**
 * Evaluates a source with data and returns the HTML: saves nothing, renders nothing, spends
 * nothing. The token is taken first, because it is what bounds the evaluation work; then the
 * brand kit (brand_kit_id, else the source's svc-brand-kit default), the optional schema
 * (saved-template rules), data.brand, the data limits, then, within the account's evaluation
 * budget, the data against the schema and the sandbox evaluation with the kit's values as
 * `brand`; then the asset references in its output.
 */
export async function previewTemplate(ctx: ServiceContext, { principal, request }: PreviewTemplateOptions): Promise<{ html: string }> {
  await takePreviewToken(ctx, principal);
  if (Buffer.byteLength(request.source, 'utf8') > maxSourceBytes) {
    throw new DomainError('template_source_limit', { details: [{ field: 'source', reason: 'Use a shorter value.' }] });
  }
  const brand = await selectBrandValues(ctx.db, { accountId: principal.accountId, requested: request.brand_kit_id, source: request.source, sourceField: 'source' });
  const html = await evaluateTemplateData(ctx.metrics, {
    source: request.source,
    data: request.data,
    sourceField: 'source',
    brand,
    schema: request.schema,
    metering: { ctx, accountId: principal.accountId },
  });
  // the same rule as a render: every asset reference in the output must be the account's
  await checkAssetReferences(ctx.db, principal.accountId, html, 'source');
  return { html };
}
