import {
  imageRange,
  isLength,
  isPageProblem,
  javascriptModes,
  maxHeaderFooterChars,
  maxPageInches,
  maxPdfMetadataChars,
  maxRawHtmlBytes,
  maxSelectedPages,
  maxTemplateSourceBytes,
  pageGeometry,
  pageIdPattern,
  paperFormats,
  pdfPasswordBytes,
  pdfScale,
  utf8Bytes,
  viewportRange,
} from '@svc/rules';
import { z } from 'zod';
import { Cursor, idSchema, Timestamp } from './common.ts';
import { named } from './registry.ts';

export { maxRawHtmlBytes, maxTemplateDataBytes, maxTemplateSourceBytes } from '@svc/rules';
/**
 * Body limit of render creation. JSON escaping can grow a 5 MiB document (quotes and
 * control characters become two to six bytes), so the body may be larger than the html
 * itself; the byte limits of html and data are checked after parsing.
 */
export const renderBodyLimit = 16 * 1024 * 1024;

const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

export const Reference = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => !controlCharacters.test(value), { message: 'control characters' });

/** Filename rules of spec 2.4; the server appends the extension. */
export const Filename = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/)
  .refine((value) => !value.endsWith(' ') && !value.includes('..'), { message: 'filename rule' });

export const PageId = z.string().regex(pageIdPattern);
export const Pages = z
  .array(PageId)
  .min(1)
  .max(maxSelectedPages)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate page ids' });

const lengthDescription =
  'A number with up to six integer digits and up to four decimals (".5mm" and "0.5mm" alike), directly followed by px, in, ' +
  'cm or mm in lowercase; no sign, exponent or whitespace.';
const PageLength = z.string().refine(isLength, { message: 'not a length' }).meta({
  description: `${lengthDescription} Positive, at most ${maxPageInches} inches (the PDF page limit).`,
});
const MarginLength = z.string().refine(isLength, { message: 'not a length' }).meta({
  description: `${lengthDescription} Opposite margins together must leave a printable area.`,
});

export const pdfFormats = paperFormats;

export const PdfOptions = named(
  'PdfOptions',
  z
    .strictObject({
      format: z.enum(pdfFormats).optional(),
      width: PageLength.optional(),
      height: PageLength.optional(),
      margins: z
        .strictObject({
          top: MarginLength.optional(),
          right: MarginLength.optional(),
          bottom: MarginLength.optional(),
          left: MarginLength.optional(),
        })
        .optional(),
      landscape: z.boolean().optional(),
      print_background: z.boolean().optional(),
      scale: z.number().min(pdfScale.min).max(pdfScale.max).optional(),
      display_header_footer: z.boolean().optional(),
      header_template: z.string().max(maxHeaderFooterChars).optional(),
      footer_template: z.string().max(maxHeaderFooterChars).optional(),
      title: z.string().max(maxPdfMetadataChars).optional(),
      author: z.string().max(maxPdfMetadataChars).optional(),
      subject: z.string().max(maxPdfMetadataChars).optional(),
      password: z
        .string()
        .min(1)
        .refine((value) => utf8Bytes(value) <= pdfPasswordBytes.max, { message: 'at most 127 bytes' })
        .optional(),
    })
    .superRefine((pdf, context) => {
      // the same geometry the renderer prints with: a page it could not lay out is refused here
      const geometry = pageGeometry(pdf);
      if (!isPageProblem(geometry) || geometry.problem === 'not_a_length') return;
      context.addIssue({ code: 'custom', path: geometry.path, message: geometry.problem });
    }),
);
export type PdfOptions = z.infer<typeof PdfOptions>;

export const Viewport = named(
  'Viewport',
  z.strictObject({
    width: z.int().min(viewportRange.width.min).max(viewportRange.width.max).optional(),
    height: z.int().min(viewportRange.height.min).max(viewportRange.height.max).optional(),
    device_scale_factor: z.number().min(viewportRange.deviceScaleFactor.min).max(viewportRange.deviceScaleFactor.max).optional(),
  }),
);

export const JavaScriptOptions = z.strictObject({ mode: z.enum(javascriptModes) });

export const ImageOptions = named(
  'ImageOptions',
  z
    .strictObject({
      format: z.enum(['png', 'jpeg', 'webp']),
      width: z.int().min(imageRange.width.min).max(imageRange.width.max).optional(),
      height: z.int().min(imageRange.height.min).max(imageRange.height.max).optional(),
      quality: z.int().min(imageRange.quality.min).max(imageRange.quality.max).optional(),
      transparent: z.boolean().optional(),
    })
    .superRefine((image, context) => {
      if (image.format === 'png' && image.quality !== undefined) {
        context.addIssue({ code: 'custom', path: ['quality'], message: 'png has no quality' });
      }
      if (image.format === 'jpeg' && image.transparent === true) {
        context.addIssue({ code: 'custom', path: ['transparent'], message: 'jpeg cannot be transparent' });
      }
    }),
);
export type ImageOptions = z.infer<typeof ImageOptions>;

const TemplateData = z.record(z.string(), z.unknown());

const commonFields = {
  html: z.string().min(1).optional(),
  template_id: idSchema('tpl_').optional().meta({ description: 'Saved shape: an owned, active saved template.' }),
  version: z
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .meta({ description: 'Saved shape: the version to render; omitted selects the latest, resolved once and pinned.' }),
  data: TemplateData.optional(),
  filename: Filename.optional(),
  reference: Reference.optional(),
  brand_kit_id: idSchema('kit_')
    .nullable()
    .optional()
    .meta({
      description:
        'An owned, active brand kit whose values templates read as brand.* (see the README). Overrides the source default ' +
        '<meta name="svc-brand-kit">; null selects no kit. Forces template evaluation with the 1 MiB source and data limits.',
    }),
  javascript: JavaScriptOptions.optional(),
  wait: z.boolean().optional(),
};

/** Fields that belong to the saved shape only; next to html they are unknown fields. */
const savedOnlyFields = ['template_id', 'version', 'size_id'] as const;

/**
 * Exactly one of the three shapes of spec 2.4, told apart by html and template_id:
 * - neither: html is a missing field;
 * - html with any saved-shape field (template_id, version, size_id): those are unknown fields
 *   (html selects the raw or stateless shape, which has none of them);
 * - template_id without data: data is a missing field;
 * - html is raw up to 5 MiB, or a template source up to 1 MiB when data or a brand kit is given
 *   (brand_kit_id forces template evaluation, spec 2.4).
 */
function checkShape(request: Record<string, unknown> & { html?: string; data?: unknown }, context: z.RefinementCtx) {
  if (request.html === undefined && request.template_id === undefined) {
    context.addIssue({ code: 'invalid_type', expected: 'string', path: ['html'], input: undefined, message: 'html or template_id is required' });
    return;
  }
  if (request.html !== undefined) {
    const extra = savedOnlyFields.filter((field) => request[field] !== undefined);
    if (extra.length > 0) context.addIssue({ code: 'unrecognized_keys', keys: [...extra], path: [], input: request, message: 'not in this shape' });
    const limit = request.data === undefined && !request.brand_kit_id ? maxRawHtmlBytes : maxTemplateSourceBytes;
    if (utf8Bytes(request.html) > limit) context.addIssue({ code: 'custom', path: ['html'], message: 'too large' });
    return;
  }
  if (request.data === undefined) {
    context.addIssue({ code: 'invalid_type', expected: 'object', path: ['data'], input: undefined, message: 'data is required' });
  }
}

/** Published as a oneOf of the raw or stateless shape (html) and the saved shape (template_id and data). */
const shapeChoice = {
  oneOf: [
    { required: ['html'], not: { anyOf: [{ required: ['template_id'] }, { required: ['version'] }, { required: ['size_id'] }] } },
    { required: ['template_id', 'data'], not: { required: ['html'] } },
  ],
};
const shapeDescription =
  'Exactly one of: raw HTML (html only, up to 5,242,880 bytes); a stateless template (html source up to 1,048,576 bytes plus ' +
  'a data object, or a brand_kit_id, which makes html a template evaluated with empty data); a saved template (template_id, optional version, data validated against the version schema). html ' +
  'together with template_id, version or size_id is refused (those fields are unknown in the html shapes).';

export const PdfRequest = named(
  'PdfRequest',
  z
    .strictObject({ ...commonFields, pdf: PdfOptions.optional(), viewport: Viewport.optional(), pages: Pages.optional() })
    .superRefine(checkShape)
    .meta({ ...shapeChoice, description: shapeDescription }),
);
export type PdfRequest = z.infer<typeof PdfRequest>;

export const ImageRequest = named(
  'ImageRequest',
  z
    .strictObject({
      ...commonFields,
      size_id: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
        .nullable()
        .optional()
        .meta({ description: 'Saved shape: a saved size of the version (or original); image width and height must equal it.' }),
      image: ImageOptions,
    })
    .superRefine(checkShape)
    .meta({ ...shapeChoice, description: shapeDescription }),
);
export type ImageRequest = z.infer<typeof ImageRequest>;

export const jobStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const creditStates = ['reserved', 'settled', 'released', 'none'] as const;
export const jobErrorCategories = ['invalid_input', 'unsafe_asset', 'resource_limit', 'timeout', 'renderer_failure', 'internal_failure'] as const;
/** Every media type a render's file can have: what GET /v1/downloads/{token} answers with. */
export const artifactMediaTypes = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;
export const artifactRemovedReasons = ['expired', 'deleted'] as const;

const jobFields = {
  reference: Reference.optional(),
  status: z.enum(jobStatuses),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
  template: z.strictObject({ id: idSchema('tpl_'), version: z.int().min(1) }).nullable(),
  credit: z.enum(creditStates),
  artifact: z
    .strictObject({
      media_type: z.enum(artifactMediaTypes),
      byte_size: z.int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      expires_at: Timestamp,
      removed_reason: z.enum(artifactRemovedReasons).nullable(),
    })
    .nullable(),
  error: z.strictObject({ category: z.enum(jobErrorCategories), code: z.string() }).nullable(),
};
const Download = z.strictObject({ url: z.string(), expires_at: Timestamp }).nullable();

function jobSchemas(prefix: 'pdf_' | 'image_', name: 'Pdf' | 'Image') {
  const id = idSchema(prefix);
  const job = named(`${name}Job`, z.strictObject({ id, ...jobFields, download: Download }));
  const item = named(`${name}HistoryItem`, z.strictObject({ id, ...jobFields }));
  const page = named(`${name}HistoryPage`, z.strictObject({ items: z.array(item).max(100), next_cursor: z.string().max(128).nullable() }));
  return { job, item, page };
}

export const PdfJobSchemas = jobSchemas('pdf_', 'Pdf');
export const ImageJobSchemas = jobSchemas('image_', 'Image');
export type RenderJob = z.infer<typeof PdfJobSchemas.job>;
export type RenderHistoryItem = z.infer<typeof PdfJobSchemas.item>;

/** History query: limit out of range is clamped (not refused); non-integers are refused. */
export const HistoryQuery = z.strictObject({
  q: z
    .string()
    .max(200)
    .refine((value) => !controlCharacters.test(value), { message: 'control characters' })
    .optional(),
  limit: z.coerce
    .number()
    .int()
    .default(20)
    .transform((value) => Math.min(100, Math.max(1, value))),
  cursor: Cursor.optional(),
});
