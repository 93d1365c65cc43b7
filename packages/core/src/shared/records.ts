/**
 * What use-cases hand back: the stored records, under names that cannot be mistaken for the
 * contract's wire shapes (the REST serializers in apps/web turn a RenderJobRecord into the
 * contract's RenderJob; GraphQL shapes its own answers from the same records).
 */
export type {
  ApiKey as ApiKeyRecord,
  Asset as AssetRecord,
  BrandKit as BrandKitRecord,
  BrandKitArchiveEvent as BrandKitArchiveRecord,
  RenderJob as RenderJobRecord,
  Template as TemplateRecord,
  TemplateArchiveEvent as TemplateArchiveRecord,
  TemplateBuild as TemplateBuildRecord,
  TemplateMessage as TemplateMessageRecord,
  TemplateVersion as TemplateVersionRecord,
  Webhook as WebhookRecord,
  WebhookAttempt as WebhookAttemptRecord,
} from '@svc/db';

/** One page of a keyset-paged list; nextCursor is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The page of at most `limit` items out of `limit + 1` fetched rows, with the cursor of its last item. */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}
