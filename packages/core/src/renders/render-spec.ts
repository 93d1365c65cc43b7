import { createHash, createHmac } from 'node:crypto';
import type { FieldDetail, ImageRequest, PdfRequest, RenderOptions } from '@svc/contracts';
import { defaultJavascriptMode, imageDefaults, pdfDefaults, viewportDefaults } from '@svc/rules';
import { type BrandValues, checkBrandData } from '../templates/brand-values.ts';
import { accountProvenanceKey } from '../settings/provenance-key.ts';
import { DomainError } from '../shared/errors.ts';
import { evaluateTemplateData } from '../templates/evaluate-source.ts';
import type { EvaluationAccount } from '../templates/evaluation-budget.ts';
import type { ResolvedTemplateVersion } from '../templates/resolve-template-version.ts';
import { savedRenderInput } from '../templates/saved-render-input.ts';
import { canonicalJson, findCanvasPages } from '@svc/templating';

export type RenderKind = 'pdf' | 'image';

export interface RenderSpec {
  html: string;
  /** Stored with the job as it is, and read so by the renderer (RenderOptions of @svc/contracts). */
  options: RenderOptions;
  /** Hash of the logical request: source, key-sorted data and effective options (the contract's idempotency rule). */
  fingerprint: string;
  /** The saved-template version rendered, or null for raw HTML and stateless templates. */
  template: { id: string; version: number; sizeId: string | null; name: string | null } | null;
  /** The keyed hash of the template data (dataHash); null for raw HTML (the file's provenance). */
  dataSha256: string | null;
}

/** Applies the defaults of the render request rules, so equal requests have equal effective options. */
export function effectiveOptions(kind: RenderKind, request: PdfRequest | ImageRequest): RenderOptions {
  const javascript = request.javascript?.mode ?? defaultJavascriptMode;
  if (kind === 'pdf') {
    const pdf = request as PdfRequest;
    const page = pdf.pdf ?? {};
    const margin = pdfDefaults.margin;
    return {
      kind,
      pdf: {
        ...page,
        ...(page.width ? {} : { format: page.format ?? pdfDefaults.format }),
        margins: { top: margin, right: margin, bottom: margin, left: margin, ...page.margins },
        landscape: page.landscape ?? pdfDefaults.landscape,
        print_background: page.print_background ?? pdfDefaults.print_background,
        scale: page.scale ?? pdfDefaults.scale,
        display_header_footer: page.display_header_footer ?? pdfDefaults.display_header_footer,
      },
      viewport: {
        width: pdf.viewport?.width ?? viewportDefaults.width,
        height: pdf.viewport?.height ?? viewportDefaults.height,
        device_scale_factor: pdf.viewport?.device_scale_factor ?? viewportDefaults.device_scale_factor,
      },
      javascript,
      ...(pdf.pages ? { pages: pdf.pages } : {}),
    };
  }
  const { image } = request as ImageRequest;
  return {
    kind,
    image: {
      format: image.format,
      width: image.width ?? imageDefaults.width,
      height: image.height ?? imageDefaults.height,
      ...(image.format === 'png' ? {} : { quality: image.quality ?? imageDefaults.quality }),
      transparent: image.transparent ?? imageDefaults.transparent,
    },
    javascript,
  };
}

/** Whether the html of a raw or stateless request is a template: with data, or with a brand kit named (the render request rules). */
export function isTemplateHtml(request: PdfRequest | ImageRequest): boolean {
  return request.data !== undefined || Boolean(request.brand_kit_id);
}

/**
 * Turns a validated request into what the worker renders. Templates are evaluated here,
 * in the sandbox, so only evaluated HTML is ever stored or rendered. A saved-template request
 * comes with its version already resolved (once, before anything else); its fingerprint names
 * the template, the resolved version and the size instead of the source. The selected brand
 * kit's values are read before this (they are captured in the evaluated html) and named in the
 * fingerprint, so a kit changed since an idempotent request makes a different logical request.
 */
export interface BuildRenderSpecOptions {
  kind: RenderKind;
  request: PdfRequest | ImageRequest;
  /** The saved-template version a template_id request names, resolved once before anything else. */
  saved?: ResolvedTemplateVersion;
  /** The selected brand kit's values (brand_kit_id, else the source's default), or null. */
  brand: BrandValues | null;
  /** The account the render is for: its evaluation budget and provenance key. */
  account: EvaluationAccount;
}

export async function buildRenderSpec({ kind, request, saved, brand, account }: BuildRenderSpecOptions): Promise<RenderSpec> {
  let html: string;
  let effective = request;
  let template: RenderSpec['template'] = null;
  if (saved) {
    const input = await savedRenderInput({ resolved: saved, request, brand, account });
    ({ html, request: effective } = input);
    template = { id: saved.templateId, version: saved.version, sizeId: input.sizeId, name: saved.templateName };
  } else {
    const source = request.html ?? '';
    const data = request.data ?? {};
    if (isTemplateHtml(request)) {
      html = await evaluateTemplateData(account.ctx.metrics, { source, data, sourceField: 'html', brand, metering: account });
    } else {
      checkBrandData(data, brand);
      html = source;
    }
  }
  const options = effectiveOptions(kind, effective);
  if (options.kind === 'pdf' && options.pages) await checkPages(html, options.pages);
  const fingerprint = createHash('sha256')
    .update(
      canonicalJson({
        kind,
        ...(template ? { template: { id: template.id, version: template.version, size_id: template.sizeId } } : { source: request.html }),
        data: request.data ?? null,
        options,
        filename: request.filename ?? null,
        reference: request.reference ?? null,
        brand: brand ?? null,
      }),
    )
    .digest('hex');
  const templated = saved !== undefined || isTemplateHtml(request);
  const dataSha256 = templated ? dataHash(await accountProvenanceKey(account.ctx, account.accountId), request.data ?? {}) : null;
  return { html, options, fingerprint, template, dataSha256 };
}

/** Marks the scheme of a data hash: files rendered before it carry a bare SHA-256 (hex) of the data. */
export const dataHashScheme = 'hmac-sha256:';

/**
 * The file's record of its data (provenance): HMAC-SHA-256 (hex) of the template data in
 * canonical JSON under the account's provenance key, after the scheme. Unkeyed, the hash of a
 * document would confirm any guess about data the document does not show.
 */
export function dataHash(accountKey: Buffer, data: unknown): string {
  return dataHashScheme + createHmac('sha256', accountKey).update(canonicalJson(data)).digest('hex');
}

/** Page ids must name canvas pages of the document (data-svc-page); unknown ids are refused. */
async function checkPages(html: string, pages: string[]) {
  const known = new Set(findCanvasPages(html).map((page) => page.id));
  const details: FieldDetail[] = pages.flatMap((id, index) => (known.has(id) ? [] : [{ field: `pages.${index}`, reason: 'invalid value' as const }]));
  if (details.length > 0) throw new DomainError('invalid_request', { details });
}
