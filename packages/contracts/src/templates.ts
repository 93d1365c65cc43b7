import { canvasRange, maxTemplateOutputChars } from '@svc/rules';
// Saved templates (the contract's saved template resource): request and response shapes. Operations are in template-operations.ts.
import { z } from 'zod';
import { idSchema, publishedAs, Timestamp, trimmedLengthPattern } from './common.ts';
import { named } from './registry.ts';

export const templateIdPrefix = 'tpl_';
export const TemplateId = idSchema(templateIdPrefix);

export const maxTemplateNameChars = 120;
export const maxTemplateTags = 20;
export const maxTagChars = 40;
export const maxSavedSizes = 20;
export const maxAdaptSizes = 20;
export const maxPreviewHtmlChars = maxTemplateOutputChars;
/** Body limits: a write carries a 1 MiB source, a schema and up to 4 MiB of sizes, with room for JSON escaping. */
export const templateWriteBodyLimit = 8 * 1024 * 1024;
export const templateRenameBodyLimit = 64 * 1024;
export const templatePreviewBodyLimit = 4 * 1024 * 1024;
export const templateAdaptBodyLimit = 4 * 1024 * 1024;

const noControlCharacters = /^[^\u0000-\u001f\u007f-\u009f]*$/;
export const sizeIdPattern = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const canvasWidth = canvasRange.width;
export const canvasHeight = canvasRange.height;

/** Trimmed, 1 to 120 characters; null or blank means no name (the server trims). */
export const TemplateName = z
  .string()
  .regex(trimmedLengthPattern(0, maxTemplateNameChars))
  .nullable()
  .meta({ description: 'Trimmed by the server; 1 to 120 characters; null or blank means no name.' });

const Tag = z.string().regex(trimmedLengthPattern(1, maxTagChars));

/**
 * At most 20 unique trimmed non-blank tags, each 1 to 40 characters, case preserved.
 * uniqueItems publishes the part of the rule JSON Schema can hold (no exact repeats).
 */
export const TemplateTags = z
  .array(Tag)
  .max(maxTemplateTags)
  .meta({ uniqueItems: true })
  .superRefine((tags, context) => {
    const seen = new Set<string>();
    tags.forEach((tag, index) => {
      const trimmed = tag.trim();
      if (seen.has(trimmed)) context.addIssue({ code: 'custom', path: [index], message: 'duplicate tag' });
      seen.add(trimmed);
    });
  })
  .meta({ description: 'At most 20 unique tags after trimming, each 1 to 40 characters; case is preserved.' });

/** A JSON Schema for data: an object, a boolean, or null for none. */
export const TemplateSchemaField = z
  .union([z.record(z.string(), z.unknown()), z.boolean(), z.null()])
  .meta({
    description:
      'JSON Schema for data. Drafts 2020-12 (the default when $schema is absent), 2019-09 and draft-07 are supported. ' +
      'At most 131,072 bytes of JSON, 1,000 subschemas and 32 levels of nesting; see docs/decisions/saved-templates.md for the complexity rules.',
  });

/**
 * A saved size as written. Types are checked here; the value rules answer their own
 * template_size_* codes (the server checks them, with details pointing at sizes.N.field).
 */
export const SizeVariantInput = z.strictObject({
  id: z.string().meta({ description: 'A lowercase letter or digit, then up to 39 lowercase letters, digits or hyphens; original is reserved.' }),
  name: z.string().meta({ description: '1 to 120 characters.' }),
  width: z.number().meta({ description: 'Integer 320 to 7680.' }),
  height: z.number().meta({ description: 'Integer 200 to 4320.' }),
  status: z.enum(['auto', 'edited']),
  source: z.string().meta({ description: 'Canvas source declaring exactly width by height (meta svc-canvas); up to 1,048,576 bytes.' }),
  data_overrides: z.record(z.string(), z.unknown()).optional().meta({ description: 'Merged over the rendered data for this size only.' }),
});
export type SizeVariantInput = z.infer<typeof SizeVariantInput>;

export const SizeVariant = named(
  'SizeVariant',
  z.strictObject({
    id: z.string().regex(sizeIdPattern),
    name: z.string().min(1).max(maxTemplateNameChars),
    width: z.int().min(canvasWidth.min).max(canvasWidth.max),
    height: z.int().min(canvasHeight.min).max(canvasHeight.max),
    status: z.enum(['auto', 'edited']),
    source: z.string(),
    data_overrides: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type SizeVariant = z.infer<typeof SizeVariant>;

/**
 * The server parses sizes by type only and checks the values itself (template_size_* codes), by
 * the constants SizeVariant is built from; the contract shows those rules as SizeVariant.
 */
const SizesInput = z
  .array(publishedAs(SizeVariantInput, { $ref: '#/components/schemas/SizeVariant' }))
  .meta({ maxItems: maxSavedSizes, description: 'At most 20 saved sizes with unique ids (template_sizes_too_many above).' });

export const TemplateWriteRequest = named(
  'TemplateWriteRequest',
  z.strictObject({
    source: z.string().min(1).meta({ description: 'Up to 1,048,576 bytes.' }),
    name: TemplateName.optional(),
    tags: TemplateTags.optional(),
    input_mode: z.enum(['blank', 'html']).optional().meta({ description: 'html (default): an HTML document evaluated as nunjucks. blank: a canvas template.' }),
    schema: TemplateSchemaField.optional(),
    sizes: SizesInput.optional(),
  }),
);
export type TemplateWriteRequest = z.infer<typeof TemplateWriteRequest>;

export const TemplateVersionWriteRequest = named(
  'TemplateVersionWriteRequest',
  z.strictObject({
    source: z.string().min(1).meta({ description: 'Up to 1,048,576 bytes.' }),
    schema: TemplateSchemaField.optional(),
    sizes: SizesInput.optional(),
  }),
);
export type TemplateVersionWriteRequest = z.infer<typeof TemplateVersionWriteRequest>;

export const TemplateRename = named(
  'TemplateRename',
  z.strictObject({
    name: TemplateName.optional(),
    tags: TemplateTags.optional(),
    archived_at: z.literal(null).optional().meta({ description: 'Only null: restores an archived template.' }),
  }),
);
export type TemplateRename = z.infer<typeof TemplateRename>;

export const TemplateSummary = named(
  'TemplateSummary',
  z.strictObject({
    tags: z.array(z.string()).max(maxTemplateTags),
    id: TemplateId,
    name: z.string().max(maxTemplateNameChars).nullable(),
    created_at: Timestamp,
    archived_at: Timestamp.nullable(),
    latest_version: z.int().min(1),
  }),
);
export type TemplateSummary = z.infer<typeof TemplateSummary>;

const ArchiveHistory = z.array(z.strictObject({ archived_at: Timestamp, restored_at: Timestamp.nullable() }));

export const TemplateDetail = named(
  'TemplateDetail',
  z.strictObject({
    ...TemplateSummary.shape,
    archive_history: ArchiveHistory,
    source: z.string(),
    schema: TemplateSchemaField.meta({ description: 'The JSON schema of the latest version, or null.' }),
    sizes: z.array(SizeVariant).max(maxSavedSizes),
  }),
);
export type TemplateDetail = z.infer<typeof TemplateDetail>;

export const TemplateVersionSummary = named('TemplateVersionSummary', z.strictObject({ version: z.int().min(1), created_at: Timestamp }));
export type TemplateVersionSummary = z.infer<typeof TemplateVersionSummary>;

export const TemplateVersionDetail = named(
  'TemplateVersionDetail',
  z.strictObject({
    version: z.int().min(1),
    created_at: Timestamp,
    source: z.string(),
    schema: TemplateSchemaField,
    sizes: z.array(SizeVariant).max(maxSavedSizes),
  }),
);
export type TemplateVersionDetail = z.infer<typeof TemplateVersionDetail>;

export const TemplatePage = named(
  'TemplatePage',
  z.strictObject({
    tag_options: z.array(z.string().min(1).max(maxTagChars)).max(100),
    items: z.array(TemplateSummary).max(100),
    next_cursor: z.string().max(128).nullable(),
  }),
);
export type TemplatePage = z.infer<typeof TemplatePage>;

export const TemplateVersionPage = named(
  'TemplateVersionPage',
  z.strictObject({ items: z.array(TemplateVersionSummary).max(100), next_cursor: z.string().max(32).nullable() }),
);
export type TemplateVersionPage = z.infer<typeof TemplateVersionPage>;

export const TemplateListQuery = z.strictObject({
  status: z.enum(['active', 'archived', 'all']).default('all'),
  q: z.string().max(maxTemplateNameChars).regex(noControlCharacters).optional(),
  tag: z.string().min(1).max(maxTagChars).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(128).optional(),
});

export const TemplateVersionListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(32).optional(),
});

export const TemplatePreviewRequest = named(
  'TemplatePreviewRequest',
  z.strictObject({
    brand_kit_id: idSchema('kit_').nullable().optional(),
    source: z.string().min(1).meta({ description: 'Up to 1,048,576 bytes.' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'Up to 1,048,576 bytes of canonical JSON.' }),
    schema: TemplateSchemaField.optional(),
  }),
);
export type TemplatePreviewRequest = z.infer<typeof TemplatePreviewRequest>;

export const TemplatePreview = named('TemplatePreview', z.strictObject({ html: z.string().max(maxPreviewHtmlChars) }));

const CanvasSize = z.strictObject({
  width: z.int().min(canvasWidth.min).max(canvasWidth.max),
  height: z.int().min(canvasHeight.min).max(canvasHeight.max),
});

export const TemplateAdaptRequest = named(
  'TemplateAdaptRequest',
  z.strictObject({
    source: z.string().min(1).meta({ description: 'A canvas template source, up to 1,048,576 bytes.' }),
    sizes: z.array(CanvasSize).min(1).max(maxAdaptSizes).meta({ description: '1 to 20 target canvas sizes; the answer has one entry per size, in this order.' }),
  }),
);
export type TemplateAdaptRequest = z.infer<typeof TemplateAdaptRequest>;

export const adaptErrorCodes = ['resize_source_unsupported', 'resize_no_layout'] as const;

export const TemplateAdaptResponse = named(
  'TemplateAdaptResponse',
  z.strictObject({
    sizes: z.array(
      z.strictObject({
        width: z.int(),
        height: z.int(),
        source: z.string().optional().meta({
          description: 'The adapted source: the original with inline styles of the new layout, canvas-sized style lengths and the svc-canvas meta changed; everything else, template syntax included, as written.',
        }),
        error: z
          .strictObject({ code: z.enum(adaptErrorCodes) })
          .optional()
          .meta({ description: 'Why this size has no source: resize_source_unsupported (not a canvas template, or it loads what the sandbox refuses) or resize_no_layout (no canvas page and no positioned element).' }),
      }),
    ),
  }),
);
export type TemplateAdaptResponse = z.infer<typeof TemplateAdaptResponse>;
