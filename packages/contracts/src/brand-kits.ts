// Brand kits (the contract's brand kit resource): request and response shapes. Operations are in brand-kits-operations.ts.
// Request schemas check types only; the value rules (name, colours, tone guidance) answer their
// own 422 codes from the server (brand_kit_name_invalid, brand_kit_colours_invalid, brand_kit_tone_invalid).
import { z } from 'zod';
import { idSchema, StrictLimit, Timestamp } from './common.ts';
import { named } from './registry.ts';

export const brandKitIdPrefix = 'kit_';
export const BrandKitId = idSchema(brandKitIdPrefix);

export const maxBrandKitNameChars = 100;
export const maxBrandKitColours = 16;
export const maxToneGuidanceChars = 500;
export const maxBrandKitAssets = 16;
/** Name, 16 colours and 500 characters of guidance, with room for JSON escaping. */
export const brandKitBodyLimit = 16 * 1024;

// The patterns and bounds publish the server's value rules (brand-kit-fields.ts) from the same constants;
// JSON Schema counts code points, as those rules do.
const visible = '[^\\s\\u0000-\\u001f\\u007f-\\u009f]';
const Name = z.string().meta({
  pattern: `^\\s*${visible}(?:[^\\u0000-\\u001f\\u007f-\\u009f]{0,${maxBrandKitNameChars - 2}}${visible})?\\s*$`,
  description: '1 to 100 characters after trimming, no control characters (brand_kit_name_invalid otherwise).',
});
const Colours = z.array(z.string().meta({ pattern: '^#[0-9A-Fa-f]{6}$' })).meta({
  maxItems: maxBrandKitColours,
  uniqueItems: true,
  description:
    'At most 16 colours, each # and 6 hex digits in either case; stored lowercase, and they must be unique after that ' +
    '(brand_kit_colours_invalid otherwise). Order is kept: it is the palette order templates read.',
});
const ToneGuidance = z
  .string()
  .meta({ maxLength: maxToneGuidanceChars, pattern: '\\S' })
  .nullable()
  .meta({ description: '1 to 500 characters with at least one visible character, or null for none (brand_kit_tone_invalid otherwise).' });

export const BrandKitWrite = named(
  'BrandKitWrite',
  z.strictObject({ name: Name, colours: Colours.optional(), tone_guidance: ToneGuidance.optional() }),
);
export type BrandKitWrite = z.infer<typeof BrandKitWrite>;

export const BrandKitPatch = named(
  'BrandKitPatch',
  z.strictObject({
    name: Name.optional(),
    colours: Colours.optional(),
    tone_guidance: ToneGuidance.optional(),
    archived_at: z.literal(null).optional().meta({ description: 'Only null: restores an archived kit.' }),
  })
    .meta({ minProperties: 1 }),
  'At least one property (brand_kit_patch_empty otherwise). Omitted fields keep their values; tone_guidance null clears it.',
);
export type BrandKitPatch = z.infer<typeof BrandKitPatch>;

export const brandAssetMediaTypes = ['image/png', 'image/jpeg', 'image/webp', 'font/woff2'] as const;

export const BrandAsset = named(
  'BrandAsset',
  z.strictObject({
    id: idSchema('asset_'),
    kind: z.enum(['logo', 'font']),
    media_type: z.enum(brandAssetMediaTypes),
    byte_size: z.int().min(1).max(10_485_760),
    created_at: Timestamp,
  }),
);
export type BrandAsset = z.infer<typeof BrandAsset>;

const kitFields = {
  id: BrandKitId,
  name: z.string().min(1).max(maxBrandKitNameChars),
  colours: z.array(z.string().regex(/^#[0-9a-f]{6}$/)).max(maxBrandKitColours),
  tone_guidance: z.string().min(1).max(maxToneGuidanceChars * 2).nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  archived_at: Timestamp.nullable(),
};

export const BrandKitSummary = named(
  'BrandKitSummary',
  z.strictObject({
    ...kitFields,
    assets: z
      .array(BrandAsset)
      .max(maxBrandKitAssets)
      .optional()
      .meta({ description: 'Current logos and fonts. Omitted in a BrandKitPage (read the kit for its assets).' }),
  }),
);
export type BrandKitSummary = z.infer<typeof BrandKitSummary>;

export const BrandKitDetail = named(
  'BrandKitDetail',
  z.strictObject({
    ...kitFields,
    assets: z.array(BrandAsset).max(maxBrandKitAssets).meta({ description: 'Current logos and fonts (replaced assets omitted).' }),
    archive_history: z.array(z.strictObject({ archived_at: Timestamp, restored_at: Timestamp.nullable() })),
  }),
);
export type BrandKitDetail = z.infer<typeof BrandKitDetail>;

export const BrandKitPage = named(
  'BrandKitPage',
  z.strictObject({ items: z.array(BrandKitSummary).max(100), next_cursor: z.string().max(128).nullable() }),
);
export type BrandKitPage = z.infer<typeof BrandKitPage>;

export const BrandKitListQuery = z.strictObject({
  status: z.enum(['active', 'archived', 'all']).default('all'),
  limit: StrictLimit,
  cursor: z.string().min(1).max(128).optional(),
});
