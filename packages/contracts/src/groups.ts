// Groups of renders (the contract's groups): batches, carousels and image packs.
import { maxSelectedPages } from '@svc/rules';
import { z } from 'zod';
import { distinctItems, idPattern, idSchema, signedLinkPattern, Timestamp } from './common.ts';
import { named } from './registry.ts';
import { Pages } from './renders.ts';
import { sizeIdPattern, TemplateId } from './templates.ts';

/** The id prefix of each kind of group. */
export const groupIdPrefixes = { batch: 'batch_', carousel: 'carousel_', image_pack: 'pack_' } as const;
/** A group's kind read from its id's prefix; null for an id of no kind of group. */
export function groupKindOf(id: string): keyof typeof groupIdPrefixes | null {
  const kinds = Object.keys(groupIdPrefixes) as (keyof typeof groupIdPrefixes)[];
  return kinds.find((kind) => id.startsWith(groupIdPrefixes[kind])) ?? null;
}
/** The id of a group of any kind. */
export const groupIdPattern = idPattern(...Object.values(groupIdPrefixes));

/** A signed archive link token: the group id, the expiry in unix seconds and a base64url HMAC-SHA256. */
export const archiveTokenPattern = signedLinkPattern(...Object.values(groupIdPrefixes));
export const maxBatchRows = 200;
export const maxPackSizes = 20;
/** Batch rows carry up to 1 MiB of data each; the body limit leaves room for a large batch. */
export const groupBodyLimit = 16 * 1024 * 1024;

/** Rows a batch may hold on each plan (the contract's limits, Groups). */
export const batchRowAllowance = { free: 10, pack: 10, starter: 50, growth: 100, scale: 200 } as const;

/**
 * Image pack preset sizes (the spec leaves the names open): common social and display
 * formats. A pack size is original, a saved size id of the version, one of these slugs, or
 * WIDTHxHEIGHT within the canvas range.
 */
export const imagePackPresets = {
  'instagram-square': { name: 'Instagram square', width: 1080, height: 1080 },
  'instagram-portrait': { name: 'Instagram portrait', width: 1080, height: 1350 },
  'instagram-landscape': { name: 'Instagram landscape', width: 1080, height: 566 },
  story: { name: 'Story (Instagram, Facebook, TikTok)', width: 1080, height: 1920 },
  'facebook-post': { name: 'Facebook post', width: 1200, height: 630 },
  'facebook-cover': { name: 'Facebook cover', width: 1640, height: 624 },
  'linkedin-post': { name: 'LinkedIn post', width: 1200, height: 627 },
  'linkedin-banner': { name: 'LinkedIn banner', width: 1584, height: 396 },
  'x-post': { name: 'X post', width: 1600, height: 900 },
  'x-header': { name: 'X header', width: 1500, height: 500 },
  'youtube-thumbnail': { name: 'YouTube thumbnail', width: 1280, height: 720 },
  'pinterest-pin': { name: 'Pinterest pin', width: 1000, height: 1500 },
  'open-graph': { name: 'Open Graph link preview', width: 1200, height: 630 },
  'hd-landscape': { name: 'HD 1920x1080', width: 1920, height: 1080 },
  'display-medium-rectangle': { name: 'Display ad, medium rectangle (2x)', width: 600, height: 500 },
  'display-leaderboard': { name: 'Display ad, leaderboard (2x)', width: 1456, height: 360 },
} as const satisfies Record<string, { name: string; width: number; height: number }>;
export type ImagePackPreset = keyof typeof imagePackPresets;

const presetList = Object.entries(imagePackPresets)
  .map(([slug, size]) => `${slug} (${size.width}x${size.height})`)
  .join(', ');

export const groupStates = ['queued', 'running', 'complete', 'partial', 'failed', 'cancelled'] as const;
export const memberStates = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type GroupState = (typeof groupStates)[number];
export type MemberState = (typeof memberStates)[number];

const version = z.int().min(1).optional().meta({ description: 'Omitted: the latest version at creation, pinned.' });
const DataObject = z.record(z.string(), z.unknown());
const MemberError = z.strictObject({ code: z.string() }).nullable();
const DownloadUrl = z.string().nullable().meta({ description: 'A signed link to the file while it is available (minted on every read).' });
const ArchiveUrl = z
  .string()
  .nullable()
  .meta({ description: 'A signed link to the ZIP of succeeded files, present once any member succeeded (minted on every read).' });

export const BatchCreate = named(
  'BatchCreate',
  z.strictObject({
    template_id: TemplateId,
    version,
    format: z.enum(['pdf', 'png', 'jpeg', 'webp']),
    rows: z
      .array(DataObject)
      .min(1)
      .max(maxBatchRows)
      .meta({ description: 'One data object per render, validated against the version schema before any job exists.' }),
  }),
);
export type BatchCreate = z.infer<typeof BatchCreate>;

export const CarouselCreate = named(
  'CarouselCreate',
  z.strictObject({
    template_id: TemplateId,
    version,
    data: DataObject.optional(),
    format: z.enum(['png', 'jpeg', 'webp']),
    pages: Pages.meta({ description: `1 to ${maxSelectedPages} different data-svc-page ids, in output order.` }),
  }),
);
export type CarouselCreate = z.infer<typeof CarouselCreate>;

// every accepted size (original, saved ids, preset slugs, WIDTHxHEIGHT) has the shape of a saved size id
const PackSize = z
  .string()
  .regex(sizeIdPattern)
  .meta({ description: `original, a saved size id of the version, a preset slug, or WIDTHxHEIGHT (320..7680 by 200..4320). Presets: ${presetList}.` });

export const ImagePackCreate = named(
  'ImagePackCreate',
  z.strictObject({
    template_id: TemplateId,
    version,
    data: DataObject.optional(),
    format: z.enum(['png', 'jpeg', 'webp']),
    sizes: distinctItems(z.array(PackSize).min(1).max(maxPackSizes), 'duplicate sizes'),
  }),
);
export type ImagePackCreate = z.infer<typeof ImagePackCreate>;

const groupFields = {
  template_id: TemplateId,
  version: z.int().min(1),
  created_at: Timestamp,
  archive_url: ArchiveUrl,
};

export const BatchRow = named(
  'BatchRow',
  z.strictObject({
    position: z.int().min(0),
    state: z.enum(memberStates),
    error: MemberError,
    download_url: DownloadUrl,
  }),
);
export const Batch = named(
  'Batch',
  z.strictObject({
    id: idSchema(groupIdPrefixes.batch),
    ...groupFields,
    format: z.enum(['pdf', 'png', 'jpeg', 'webp']),
    state: z.enum(groupStates),
    quoted_credits: z.int().min(1).max(maxBatchRows).meta({ description: 'The row count: one credit per succeeded row, no discount.' }),
    rows: z.array(BatchRow),
  }),
);
export type Batch = z.infer<typeof Batch>;

const imageMemberStates = ['queued', 'running', 'succeeded', 'failed'] as const;
const imageGroupStates = ['queued', 'running', 'complete', 'partial', 'failed'] as const;

/** A carousel page or image pack size: the member fields both share, named by `label`. */
function imageMember<Label extends 'page_id' | 'size_id'>(name: string, label: Label) {
  return named(
    name,
    z.strictObject({
      position: z.int().min(0),
      ...({ [label]: z.string() } as Record<Label, z.ZodString>),
      name: z.string(),
      width: z.int().min(1),
      height: z.int().min(1),
      state: z.enum(imageMemberStates),
      error: MemberError,
      download_url: DownloadUrl,
    }),
  );
}

export const CarouselMember = imageMember('CarouselMember', 'page_id');
export const Carousel = named(
  'Carousel',
  z.strictObject({
    id: idSchema(groupIdPrefixes.carousel),
    ...groupFields,
    format: z.enum(['png', 'jpeg', 'webp']),
    state: z.enum(imageGroupStates),
    members: z.array(CarouselMember),
  }),
);
export type Carousel = z.infer<typeof Carousel>;

export const ImagePackMember = imageMember('ImagePackMember', 'size_id');
export const ImagePack = named(
  'ImagePack',
  z.strictObject({
    id: idSchema(groupIdPrefixes.image_pack),
    ...groupFields,
    format: z.enum(['png', 'jpeg', 'webp']),
    state: z.enum(imageGroupStates),
    members: z.array(ImagePackMember),
  }),
);
export type ImagePack = z.infer<typeof ImagePack>;
