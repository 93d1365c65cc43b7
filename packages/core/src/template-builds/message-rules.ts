// The rules of AI messages that both acceptance (web) and the pipeline (worker) apply:
// prices, output intents, and the checks every draft must pass before it is a candidate.
import { aiCreditPrices, type TemplateBuildDraft, type TemplateBuildInput, type TemplateOutput, type TemplateOutputIntent } from '@svc/contracts';
import type { DbOrTx } from '@svc/db';
import { checkAssetReferences } from '../assets/asset-references.ts';
import { imageAssetError } from '../assets/image-refusals.ts';
import { verifyImage, type VerifiedImage } from '../assets/verify-image.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import type { BrandValues } from '../templates/brand-values.ts';
import { DomainError } from '../shared/errors.ts';
import { readCanvas } from '../templates/canvas.ts';
import { checkVersionContent } from '../templates/check-version-content.ts';
import { evaluateTemplateData } from '../templates/evaluate-source.ts';

/** Without a source image, an image output is 1200 by 628 unless both dimensions are given (the contract's AI build output intents). */
export const defaultImageSize = { width: 1200, height: 628 } as const;
/** Failed messages in a row after which a build takes no more model work (409 ai_failure_limit_reached). */
export const failureLimit = 5;
/** Repair rounds after the first generation before a message fails with failure_category validation. */
export const maxRepairRounds = 2;
export const pendingStates = ['queued', 'running', 'previewing'] as const;

/**
 * The price of a message (the contract's price list): 0 for a source; 50 for a source image, and for words or
 * HTML when there is no draft yet to edit (a build); 25 for a later text or HTML edit.
 */
export function priceOf(input: TemplateBuildInput, hasDraft: boolean): 0 | 25 | 50 {
  if (input.type === 'source') return aiCreditPrices.source;
  if (input.type === 'image') return aiCreditPrices.image;
  return hasDraft ? aiCreditPrices.edit : aiCreditPrices.build;
}

/** Width and height go together on an image intent (400 on output.height or output.width). */
export function checkOutputIntent(intent: TemplateOutputIntent | undefined): void {
  if (intent?.type !== 'image') return;
  if ((intent.width === undefined) !== (intent.height === undefined)) {
    throw new DomainError('invalid_request', { details: [{ field: intent.width === undefined ? 'output.width' : 'output.height', reason: 'missing field' }] });
  }
}

/**
 * The output a draft gets: a fixed intent decides; auto takes the model's choice. Images take
 * the intent's dimensions, else a source image's (kept within the canvas range), else 1200x628.
 */
export function resolveOutput(intent: TemplateOutputIntent | null, chosen: TemplateOutput | null, sourceImage: { width: number; height: number } | null): TemplateOutput {
  const kind = intent && intent.type !== 'auto' ? intent.type : (chosen?.type ?? 'pdf');
  if (kind === 'pdf') return { type: 'pdf' };
  const fixed = intent?.type === 'image' ? intent : null;
  const format = fixed?.format ?? (chosen?.type === 'image' ? chosen.format : 'png');
  if (fixed?.width !== undefined && fixed.height !== undefined) return { type: 'image', format, width: fixed.width, height: fixed.height };
  if (sourceImage) return { type: 'image', format, width: clamp(sourceImage.width, 320, 7680), height: clamp(sourceImage.height, 200, 4320) };
  if (!fixed && chosen?.type === 'image') return chosen;
  return { type: 'image', format, ...defaultImageSize };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The output of a source message: its intent, else an image of the source's canvas, else a PDF. */
export function sourceOutput(intent: TemplateOutputIntent | null, source: string): TemplateOutput {
  if (intent && intent.type !== 'auto') return resolveOutput(intent, null, null);
  const canvas = readCanvas(source);
  if (canvas.kind === 'canvas') return { type: 'image', format: 'png', width: canvas.canvas.width, height: canvas.canvas.height };
  return { type: 'pdf' };
}

/** A source image: strict base64 of a still PNG, JPEG or WebP within the upload rules; checked before any model call. */
export async function checkSourceImage(base64: string): Promise<VerifiedImage & { bytes: Buffer }> {
  const invalid = () => new DomainError('image_asset_invalid', { details: [{ field: 'input.base64', reason: 'invalid value' }] });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) throw invalid();
  const bytes = Buffer.from(base64, 'base64');
  const verdict = await verifyImage(bytes, null);
  if (!verdict.ok) {
    const error = imageAssetError(verdict.refusal, 'body');
    throw new DomainError(error.code, { details: [{ field: `input.base64.${verdict.refusal}`, reason: 'invalid value' }] });
  }
  return { ...verdict.image, bytes };
}

export interface CheckDraftOptions {
  db: DbOrTx;
  accountId: string;
  draft: TemplateBuildDraft;
  brand: BrandValues;
  inputMode: 'html' | 'blank';
  /** Where problems point: input (a customer's source) or draft (a generated one). */
  field: 'input' | 'draft';
  /** Where the evaluation is counted (the service context's). */
  metrics: ServiceMetrics;
}

/**
 * The checks a draft passes before it is a candidate: the saved-template checks (size, syntax,
 * canvas of a blank template, schema rules), then its sample_data (brand reserved, the data
 * limits, the schema), evaluation in the sandbox with the kit as brand, and the asset references
 * of the result. Answers the evaluated html; throws the first problem as a DomainError.
 */
export async function checkDraft(options: CheckDraftOptions): Promise<string> {
  const { draft, brand, field } = options;
  const at = (name: string) => (field === 'input' ? `input.${name}` : name);
  const relocate = async <T>(work: () => Promise<T> | T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DomainError) || !error.details) throw error;
      throw new DomainError(error.code, { details: error.details.map((detail) => ({ ...detail, field: relocated(detail.field, at) })), clientMessage: error.clientMessage });
    }
  };
  await relocate(() => checkVersionContent({ source: draft.source, schema: draft.schema, inputMode: options.inputMode, metrics: options.metrics }));
  const html = await relocate(() =>
    evaluateTemplateData(options.metrics, { source: draft.source, data: draft.sample_data, sourceField: 'source', brand, schema: draft.schema }),
  );
  await relocate(() => checkAssetReferences(options.db, options.accountId, html, 'source'));
  return html;
}

/** source and schema keep their names under input.; data problems point at sample_data. */
function relocated(field: string, at: (name: string) => string): string {
  if (field.startsWith('data')) return at(`sample_data${field.slice(4)}`);
  if (field === '' ) return field;
  return at(field);
}

/**
 * The saved-template checks again at publication (publish, chat apply): a draft passed them
 * when it was made, but the rules may have moved on since; a draft that no longer passes
 * answers 422 generated_template_invalid with the check's details.
 */
export async function checkPublishable(metrics: ServiceMetrics, draft: TemplateBuildDraft, inputMode: 'html' | 'blank') {
  try {
    return await checkVersionContent({ source: draft.source, schema: draft.schema, inputMode, metrics });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError('generated_template_invalid', { details: error.details });
  }
}
