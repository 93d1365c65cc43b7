// What group members render: effective render options and evaluated html, with problems
// pointed at the member they belong to (rows.N for batch rows).
import type { FieldDetail, ImageRequest, PdfRequest, RenderOptions } from '@svc/contracts';
import { checkAssetReferences } from '../assets/asset-references.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { BrandValues } from '../templates/brand-values.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { dataHash, effectiveOptions } from '../renders/render-spec.ts';
import { accountProvenanceKey } from '../settings/provenance-key.ts';
import type { Canvas } from '../templates/canvas.ts';
import { compileDataSchema, validateData } from '../templates/data-schema.ts';
import { checkEvaluationData, evaluateSource } from '../templates/evaluate-source.ts';
import { type EvaluationTenancy, meteredEvaluation } from '../templates/evaluation-budget.ts';

export type GroupFormat = 'pdf' | 'png' | 'jpeg' | 'webp';

/**
 * Render options of a member, with the defaults of the render request rules: a PDF prints on A4, or on the
 * canvas when the version declares one; an image is the given size (the canvas), else the
 * default 1280x720. A carousel member shows one canvas page.
 */
export function memberOptions(format: GroupFormat, size: Canvas | null, page?: string): RenderOptions {
  if (format === 'pdf') {
    const pdf = size ? { width: `${size.width}px`, height: `${size.height}px` } : undefined;
    return effectiveOptions('pdf', { html: '', pdf } as PdfRequest);
  }
  const image = { format, ...(size ? { width: size.width, height: size.height } : {}) };
  const options = effectiveOptions('image', { html: '', image } as ImageRequest);
  return page && options.kind === 'image' ? { ...options, pages: [page] } : options;
}

/** Moves the details of a data problem from data to the member's own field: data/a/b becomes rows.3/a/b. */
export function pointedAt(error: unknown, field: string): unknown {
  if (!(error instanceof DomainError) || !error.details) return error;
  const details = error.details.map((detail) => (detail.field === 'data' || detail.field.startsWith('data/') ? { ...detail, field: `${field}${detail.field.slice(4)}`.slice(0, 260) } : detail));
  return new DomainError(error.code, { details, retryAfterSeconds: error.retryAfterSeconds, planLimit: error.planLimit, clientMessage: error.clientMessage });
}

/**
 * Checks each data object (brand reservation, data limits, the version's schema) before any is
 * evaluated. Schema failures of every row are reported together (at most 16 details), each
 * under its own field; any other problem answers at once. The validations are charged to
 * `tenancy`, the group request's metered evaluation (meterMembers), when given.
 */
export async function validateMemberData(
  metrics: ServiceMetrics,
  schema: unknown,
  entries: { data: Record<string, unknown>; field: string }[],
  brand: BrandValues | null,
  tenancy?: EvaluationTenancy,
): Promise<void> {
  const validator = compileDataSchema(schema);
  const details: FieldDetail[] = [];
  for (const { data, field } of entries) {
    try {
      await checkEvaluationData(metrics, data, brand);
      validateData(validator, data, tenancy);
    } catch (error) {
      const pointed = pointedAt(error, field);
      if (!(pointed instanceof DomainError) || pointed.code !== 'template_data_invalid') throw pointed;
      details.push(...(pointed.details ?? []));
      if (details.length >= 16) break;
    }
  }
  if (details.length > 0) throw new DomainError('template_data_invalid', { details: details.slice(0, 16) });
}

/**
 * Evaluates a member's source with its data; the html's asset references must be owned (captured
 * with each job). `tenancy` is the group request's one metered evaluation (meterMembers).
 */
export async function evaluateMember(
  ctx: ServiceContext,
  accountId: string,
  input: { source: string; data: Record<string, unknown>; field: string; brand: BrandValues | null },
  tenancy: EvaluationTenancy,
): Promise<{ html: string; assetIds: string[]; dataSha256: string }> {
  try {
    const html = await evaluateSource(ctx.metrics, { source: input.source, data: input.data, sourceField: 'template_id', brand: input.brand, metering: tenancy });
    const assetIds = await checkAssetReferences(ctx.db, accountId, html, 'template_id');
    return { html, assetIds, dataSha256: dataHash(await accountProvenanceKey(ctx, accountId), input.data) };
  } catch (error) {
    throw pointedAt(error, input.field);
  }
}

/** Maps with at most `limit` calls in flight, keeping order (evaluations queue for sandbox threads anyway). */
export async function mapBounded<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Runs a group request's evaluations within the account's evaluation budget as one: taken once
 * ahead, charged with the sandbox time of all its members, so a group's size does not multiply
 * what is held while it evaluates.
 */
export function meterMembers<T>(ctx: ServiceContext, accountId: string, evaluate: (tenancy: EvaluationTenancy) => Promise<T>): Promise<T> {
  return meteredEvaluation({ ctx, accountId }, evaluate);
}
