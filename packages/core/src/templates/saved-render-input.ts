import type { ImageRequest, PdfRequest } from '@svc/contracts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { BrandValues } from './brand-values.ts';
import { DomainError } from '../shared/errors.ts';
import { readCanvas } from './canvas.ts';
import { checkDataLimits, evaluateTemplateData } from './evaluate-source.ts';
import type { EvaluationAccount } from './evaluation-budget.ts';
import type { ResolvedTemplateVersion } from './resolve-template-version.ts';

export interface SavedRenderInput {
  html: string;
  /** The request with the selected size's image dimensions filled in. */
  request: PdfRequest | ImageRequest;
  sizeId: string | null;
}

const invalid = (field: string) => new DomainError('invalid_request', { details: [{ field, reason: 'invalid value' }] });

export interface SavedRenderInputOptions {
  resolved: ResolvedTemplateVersion;
  request: PdfRequest | ImageRequest;
  /** The selected brand kit's values, read as `brand`. */
  brand: BrandValues | null;
  /** The account the render is for: the evaluation is within its budget. */
  account: EvaluationAccount;
}

/**
 * The html of a saved-template render: the customer's data is checked against the data limits
 * and, within the account's evaluation budget (taken first), validated against the version's
 * schema (before any override or evaluation), the selected
 * size's data_overrides are merged over it (dataForSize), and the size's source (or the
 * version's) is evaluated, with the selected brand kit's values as `brand` (evaluateTemplateData).
 * Source errors point at template_id with line and column.
 */
export async function savedRenderInput({ resolved, request, brand, account }: SavedRenderInputOptions): Promise<SavedRenderInput> {
  const { metrics } = account.ctx;
  const { source, overrides, request: sized, sizeId } = selectSize(resolved, request);
  const html = await evaluateTemplateData(metrics, {
    source,
    data: request.data ?? {},
    sourceField: 'template_id',
    brand,
    schema: resolved.schema,
    // a size's own data_overrides are the template author's: the kit's brand values replace any brand in them
    evaluatedData: (data) => dataForSize(metrics, data, overrides),
    metering: account,
  });
  return { html, request: sized, sizeId };
}

/**
 * What a saved size evaluates: its data_overrides merged over the customer's data (already
 * within the data limits), or that data itself. Overrides can grow the data past the limits,
 * so the merged data is held to them too.
 */
export async function dataForSize(metrics: ServiceMetrics, data: Record<string, unknown>, overrides: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
  if (!overrides) return data;
  const merged = mergeData(data, overrides);
  await checkDataLimits(metrics, merged);
  return merged;
}

/**
 * size_id (images only) selects a saved size, or original for the version's own canvas. The
 * image must be exactly that size: omitted dimensions default to it, others are refused.
 */
function selectSize(resolved: ResolvedTemplateVersion, request: PdfRequest | ImageRequest) {
  const sizeId = 'size_id' in request && request.size_id ? request.size_id : null;
  if (sizeId === null) return { source: resolved.source, overrides: undefined, request, sizeId };
  let size: { width: number; height: number; source: string; data_overrides?: Record<string, unknown> };
  if (sizeId === 'original') {
    const canvas = readCanvas(resolved.source);
    if (canvas.kind !== 'canvas') throw invalid('size_id');
    size = { ...canvas.canvas, source: resolved.source };
  } else {
    const saved = resolved.sizes.find((candidate) => candidate.id === sizeId);
    if (!saved) throw invalid('size_id');
    size = saved;
  }
  const image = (request as ImageRequest).image;
  if (image.width !== undefined && image.width !== size.width) throw invalid('image.width');
  if (image.height !== undefined && image.height !== size.height) throw invalid('image.height');
  const sized: ImageRequest = { ...(request as ImageRequest), image: { ...image, width: size.width, height: size.height } };
  return { source: size.source, overrides: size.data_overrides, request: sized, sizeId };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Overrides merged over data: objects merge key by key, anything else (arrays included) replaces. */
function mergeData(data: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...data };
  for (const [key, value] of Object.entries(overrides)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeData(current, value) : value;
  }
  return merged;
}
