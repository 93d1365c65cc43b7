import {
  imageRange,
  lengthPattern,
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
  positiveLengthPattern,
  utf8Bytes,
  viewportRange,
} from '@svc/rules';
import { z } from 'zod';
import { Cursor, idPattern, idSchema, Timestamp } from './common.ts';
import { named, schemaRegistry } from './registry.ts';

export { maxRawHtmlBytes, maxTemplateDataBytes, maxTemplateSourceBytes } from '@svc/rules';
/**
 * Body limit of render creation. JSON escaping can grow a 5 MiB document (quotes and
 * control characters become two to six bytes), so the body may be larger than the html
 * itself; the byte limits of html and data are checked after parsing.
 */
export const renderBodyLimit = 16 * 1024 * 1024;

/** Text without C0 or C1 control characters (line breaks included). */
export const noControlCharacters = /^[^\u0000-\u001f\u007f-\u009f]*$/;

export const Reference = z.string().min(1).max(200).regex(noControlCharacters);

/**
 * The render request's filename rules in one pattern (so the published schema holds all of them): a
 * letter or digit first, then letters, digits, space, dot, underscore or hyphen, no two dots
 * in a row and no trailing space. The server appends the extension.
 */
export const Filename = z
  .string()
  .min(1)
  .max(120)
  .regex(/^(?!.*\.\.)(?!.* $)[A-Za-z0-9][A-Za-z0-9 ._-]*$/);

export const PageId = z.string().regex(pageIdPattern);
export const Pages = z
  .array(PageId)
  .min(1)
  .max(maxSelectedPages)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate page ids' })
  .meta({ uniqueItems: true });

const lengthDescription =
  'A number with up to six integer digits and up to four decimals (".5mm" and "0.5mm" alike), directly followed by px, in, ' +
  'cm or mm in lowercase; no sign, exponent or whitespace.';
const PageLength = z.string().regex(positiveLengthPattern).meta({
  description: `${lengthDescription} Positive, at most ${maxPageInches} inches (the PDF page limit).`,
});
const MarginLength = z.string().regex(lengthPattern).meta({
  description: `${lengthDescription} Opposite margins together must leave a printable area.`,
});

export const pdfFormats = paperFormats;

/**
 * The render request's byte limits that JSON Schema cannot count: the published maxLength counts
 * characters, which never exceed UTF-8 bytes, so whatever the document refuses the server
 * refuses too; the byte count itself is checked here.
 */
function utf8Text(maxBytes: number) {
  return z
    .string()
    .max(maxBytes)
    .refine((value) => utf8Bytes(value) <= maxBytes, { message: `at most ${maxBytes} UTF-8 bytes` });
}

/** Chromium's own header and footer, and the recommended alternative in the document's CSS. */
const headerFooterDescription = (part: 'header' | 'footer') =>
  `HTML of Chromium's page ${part}, drawn when display_header_footer is true. It is laid out apart from the document: ` +
  'none of its styles or web fonts apply and images are unsupported. Recommended instead: page-margin boxes in the ' +
  'document\'s own CSS, such as @page { margin: 20mm; @bottom-center { content: "Page " counter(page) " of " counter(pages) } }, ' +
  'which use its fonts and colours; the document\'s @page margins win over pdf.margins side by side.';

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
      header_template: z.string().max(maxHeaderFooterChars).optional().meta({ description: headerFooterDescription('header') }),
      footer_template: z.string().max(maxHeaderFooterChars).optional().meta({ description: headerFooterDescription('footer') }),
      title: z.string().max(maxPdfMetadataChars).optional(),
      author: z.string().max(maxPdfMetadataChars).optional(),
      subject: z.string().max(maxPdfMetadataChars).optional(),
      password: utf8Text(pdfPasswordBytes.max).min(1).optional(),
    })
    .superRefine((pdf, context) => {
      // the same geometry the renderer prints with: a page it could not lay out is refused here
      const geometry = pageGeometry(pdf);
      if (!isPageProblem(geometry) || geometry.problem === 'not_a_length' || geometry.problem === 'not_positive') return;
      context.addIssue({ code: 'custom', path: geometry.path, message: geometry.problem });
    })
    .meta({
      // what JSON Schema can say of the geometry: width and height come together, never with format
      dependentRequired: { width: ['height'], height: ['width'] },
      dependentSchemas: { format: { properties: { width: false, height: false } } },
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
    })
    .meta({
      if: { properties: { format: { const: 'png' } } },
      then: { properties: { quality: false } },
      else: { if: { properties: { format: { const: 'jpeg' } } }, then: { properties: { transparent: { const: false } } } },
    }),
);
export type ImageOptions = z.infer<typeof ImageOptions>;

const TemplateData = z.record(z.string(), z.unknown()).meta({
  description: 'A JSON object; its canonical key-sorted JSON is at most 1,048,576 bytes.',
});
const RawHtml = utf8Text(maxRawHtmlBytes).min(1);
const TemplateSource = utf8Text(maxTemplateSourceBytes).min(1);
const BrandKitChoice = idSchema('kit_')
  .nullable()
  .meta({
    description:
      'An owned, active brand kit whose values templates read as brand.* (see docs/decisions/brand-kits.md). Overrides the source default ' +
      '<meta name="svc-brand-kit">; null selects no kit. Forces template evaluation with the 1 MiB source and data limits.',
  });

const commonFields = {
  filename: Filename.optional(),
  reference: Reference.optional(),
  brand_kit_id: BrandKitChoice.optional(),
  javascript: JavaScriptOptions.optional(),
  wait: z.boolean().optional(),
};

const savedFields = {
  template_id: idSchema('tpl_').meta({ description: 'An owned, active saved template.' }),
  version: z
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .meta({ description: 'The version to render; omitted selects the latest, resolved once and pinned.' }),
  data: TemplateData.meta({ description: "Validated against the selected version's schema before evaluation." }),
};

/**
 * Raw HTML with a brand kit is a template evaluated with empty data (the render request rules), so its html
 * has the template source limit.
 */
function checkKitSource(request: { html: string; brand_kit_id?: string | null }, context: z.RefinementCtx) {
  if (request.brand_kit_id && utf8Bytes(request.html) > maxTemplateSourceBytes) {
    context.addIssue({ code: 'custom', path: ['html'], message: `at most ${maxTemplateSourceBytes} bytes with a brand kit` });
  }
}
const kitSourceRule = {
  if: { properties: { brand_kit_id: { type: 'string' } }, required: ['brand_kit_id'] },
  then: { properties: { html: { maxLength: maxTemplateSourceBytes } } },
};

interface RequestShapes<Raw extends z.ZodType, Stateless extends z.ZodType, Saved extends z.ZodType> {
  raw: Raw;
  stateless: Stateless;
  saved: Saved;
}

/**
 * Exactly one of the three render request shapes, chosen by the fields present, then validated
 * by that shape alone (so errors name fields of the shape the client meant):
 * - html selects raw, or stateless when data is present; template_id, version and size_id
 *   beside html are then unknown fields;
 * - template_id without html selects saved (data is then a missing field when absent);
 * - neither html nor template_id: html is a missing field (of the stateless shape when data is given).
 * Published as a oneOf of the three shapes (disjoint: html with or without data, or template_id).
 */
function requestShapes<Raw extends z.ZodType, Stateless extends z.ZodType, Saved extends z.ZodType>(
  name: string,
  shapes: RequestShapes<Raw, Stateless, Saved>,
) {
  const chooseShape = (body: unknown): z.ZodType => {
    if (typeof body !== 'object' || body === null) return shapes.raw;
    const { html, template_id, data } = body as Record<string, unknown>;
    if (template_id !== undefined && html === undefined) return shapes.saved;
    return data !== undefined ? shapes.stateless : shapes.raw;
  };
  const ids = [shapes.raw, shapes.stateless, shapes.saved].map((shape) => schemaRegistry.get(shape)?.id);
  return named(
    name,
    z
      .unknown()
      .transform((body, context): z.output<Raw> | z.output<Stateless> | z.output<Saved> => {
        const result = chooseShape(body).safeParse(body);
        if (result.success) return result.data as z.output<Raw> | z.output<Stateless> | z.output<Saved>;
        for (const issue of result.error.issues) context.addIssue({ ...issue, input: body } as Parameters<typeof context.addIssue>[0]);
        return z.NEVER;
      })
      .meta({ oneOf: ids.map((id) => ({ $ref: `#/components/schemas/${id}` })), description: shapeDescription }),
  );
}

const shapeDescription =
  'Exactly one of: raw HTML (html, up to 5,242,880 bytes; with a brand_kit_id html is a template evaluated with empty ' +
  'data, up to 1,048,576 bytes); a stateless template (html source up to 1,048,576 bytes and a data object); a saved ' +
  'template (template_id, optional version, data validated against the version schema). html together with template_id, ' +
  'version or size_id is refused (those fields are unknown in the html shapes).';

const pdfOnlyFields = { pdf: PdfOptions.optional(), viewport: Viewport.optional(), pages: Pages.optional() };
const rawDescription = 'Raw HTML rendered as given.';
const statelessDescription = 'A template source evaluated with data (the stateless template shape).';
const savedDescription = 'A saved template version evaluated with data.';

const PdfRawRequest = named(
  'PdfRawRequest',
  z.strictObject({ html: RawHtml, ...commonFields, ...pdfOnlyFields }).superRefine(checkKitSource).meta(kitSourceRule),
  rawDescription,
);
const PdfStatelessRequest = named(
  'PdfStatelessRequest',
  z.strictObject({ html: TemplateSource, data: TemplateData, ...commonFields, ...pdfOnlyFields }),
  statelessDescription,
);
const PdfSavedRequest = named('PdfSavedRequest', z.strictObject({ ...savedFields, ...commonFields, ...pdfOnlyFields }), savedDescription);

export const PdfRequest = requestShapes('PdfRequest', { raw: PdfRawRequest, stateless: PdfStatelessRequest, saved: PdfSavedRequest });
/** Any of the three shapes, read field by field. */
export type PdfRequest = Partial<z.output<typeof PdfRawRequest> & z.output<typeof PdfStatelessRequest> & z.output<typeof PdfSavedRequest>>;

const SizeChoice = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
  .nullable()
  .meta({ description: 'A saved size of the version (or original); image width and height must equal it.' });

const ImageRawRequest = named(
  'ImageRawRequest',
  z.strictObject({ html: RawHtml, ...commonFields, image: ImageOptions }).superRefine(checkKitSource).meta(kitSourceRule),
  rawDescription,
);
const ImageStatelessRequest = named(
  'ImageStatelessRequest',
  z.strictObject({ html: TemplateSource, data: TemplateData, ...commonFields, image: ImageOptions }),
  statelessDescription,
);
const ImageSavedRequest = named(
  'ImageSavedRequest',
  z.strictObject({ ...savedFields, size_id: SizeChoice.optional(), ...commonFields, image: ImageOptions }),
  savedDescription,
);

export const ImageRequest = requestShapes('ImageRequest', { raw: ImageRawRequest, stateless: ImageStatelessRequest, saved: ImageSavedRequest });
/** Any of the three shapes, read field by field. */
export type ImageRequest = Partial<z.output<typeof ImageRawRequest> & z.output<typeof ImageStatelessRequest>> &
  Partial<z.output<typeof ImageSavedRequest>> & { image: ImageOptions };

export const jobStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const creditStates = ['reserved', 'settled', 'released', 'none'] as const;
export const jobErrorCategories = ['invalid_input', 'unsafe_asset', 'resource_limit', 'timeout', 'renderer_failure', 'internal_failure'] as const;
/** Why a job failed, broadly (the public taxonomy of job errors); its code says exactly. */
export type JobErrorCategory = (typeof jobErrorCategories)[number];
/** Every media type a render's file can have: what GET /v1/downloads/{token} answers with. */
export const artifactMediaTypes = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;
export const artifactRemovedReasons = ['expired', 'deleted'] as const;

function jobFields<const MediaTypes extends readonly [string, ...string[]]>(mediaTypes: MediaTypes) {
  return {
    reference: Reference.optional(),
    status: z.enum(jobStatuses),
    created_at: Timestamp,
    finished_at: Timestamp.nullable(),
    template: z.strictObject({ id: idSchema('tpl_'), version: z.int().min(1) }).nullable(),
    credit: z.enum(creditStates),
    artifact: z
      .strictObject({
        media_type: z.enum(mediaTypes),
        byte_size: z.int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        expires_at: Timestamp,
        removed_reason: z.enum(artifactRemovedReasons).nullable(),
      })
      .nullable(),
    error: z.strictObject({ category: z.enum(jobErrorCategories), code: z.string() }).nullable(),
  };
}
const Download = z.strictObject({ url: z.string(), expires_at: Timestamp }).nullable();

/** The id prefix of each kind of render. */
export const renderIdPrefixes = { pdf: 'pdf_', image: 'image_' } as const;
/** A render's kind read from its id's prefix; null for an id of neither kind. */
export function renderKindOf(id: string): keyof typeof renderIdPrefixes | null {
  return id.startsWith(renderIdPrefixes.pdf) ? 'pdf' : id.startsWith(renderIdPrefixes.image) ? 'image' : null;
}
/** The id of a render of either kind. */
export const renderIdPattern = idPattern(renderIdPrefixes.pdf, renderIdPrefixes.image);

function jobSchemas<const MediaTypes extends readonly [string, ...string[]]>(prefix: 'pdf_' | 'image_', name: 'Pdf' | 'Image', mediaTypes: MediaTypes) {
  const id = idSchema(prefix);
  const fields = jobFields(mediaTypes);
  const job = named(`${name}Job`, z.strictObject({ id, ...fields, download: Download }));
  const item = named(`${name}HistoryItem`, z.strictObject({ id, ...fields }));
  const page = named(`${name}HistoryPage`, z.strictObject({ items: z.array(item).max(100), next_cursor: z.string().max(128).nullable() }));
  return { job, item, page };
}

export const PdfJobSchemas = jobSchemas(renderIdPrefixes.pdf, 'Pdf', ['application/pdf']);
export const ImageJobSchemas = jobSchemas(renderIdPrefixes.image, 'Image', ['image/png', 'image/jpeg', 'image/webp']);
export type RenderJob = z.infer<typeof PdfJobSchemas.job> | z.infer<typeof ImageJobSchemas.job>;
export type RenderHistoryItem = z.infer<typeof PdfJobSchemas.item> | z.infer<typeof ImageJobSchemas.item>;

/** History query: limit out of range is clamped (not refused); non-integers are refused. */
export const HistoryQuery = z.strictObject({
  q: z.string().max(200).regex(noControlCharacters).optional(),
  limit: z.coerce
    .number()
    .int()
    .default(20)
    .transform((value) => Math.min(100, Math.max(1, value))),
  cursor: Cursor.optional(),
});
