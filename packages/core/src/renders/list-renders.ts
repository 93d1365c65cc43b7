import { idPattern, renderIdPattern, renderIdPrefixes } from '@svc/contracts';
import type { JobStatus, Prisma } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type Page, pageOf, type RenderJobRecord } from '../shared/records.ts';
import type { RenderKind } from './render-spec.ts';

export interface ListRendersOptions {
  accountId: string;
  /** One kind (the /v1 history routes), or both (the dashboard). */
  kind?: RenderKind;
  q?: string;
  /** The dashboard's search also finds a render by its id (exact) or its download name (substring); /v1 keeps the spec's fields. */
  matchIdAndFilename?: boolean;
  /** Only jobs in this state (the dashboard's filter). */
  status?: JobStatus;
  limit: number;
  cursor?: string;
}

/** File types a history search can name: the media type and its usual names. */
const typeWords: Record<string, string[]> = {
  'application/pdf': ['pdf', 'application/pdf'],
  'image/png': ['png', 'image/png', 'image'],
  'image/jpeg': ['jpeg', 'jpg', 'image/jpeg', 'image'],
  'image/webp': ['webp', 'image/webp', 'image'],
};

/**
 * History, newest first, keyset-paged. q matches references (substring, any case) and
 * file types (pdf, png, jpeg/jpg, webp); template names join in with saved templates.
 * Failed or cancelled jobs removed by DELETE are not listed.
 */
export async function listRenders(ctx: ServiceContext, options: ListRendersOptions): Promise<Page<RenderJobRecord>> {
  const { accountId, kind, q, matchIdAndFilename, status, limit, cursor } = options;
  const after = cursor ? decodeCursor(cursor, kind ? idPattern(renderIdPrefixes[kind]) : renderIdPattern) : undefined;
  const search = q?.trim();
  const matchingTypes = search
    ? Object.entries(typeWords)
        .filter(([, words]) => words.some((word) => word.includes(search.toLowerCase())))
        .map(([mediaType]) => mediaType)
    : [];
  const where: Prisma.RenderJobWhereInput = {
    accountId,
    ...(kind ? { kind } : {}),
    ...(status ? { status } : {}),
    hiddenAt: null,
    ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    ...(search
      ? {
          AND: [
            {
              OR: [
                { reference: { contains: search, mode: 'insensitive' } },
                { template: { name: { contains: search, mode: 'insensitive' } } },
                ...(matchingTypes.length ? [{ mediaType: { in: matchingTypes } }] : []),
                ...(kind !== 'image' && 'pdf'.includes(search.toLowerCase()) ? [{ kind: 'pdf' as const }] : []),
                ...(matchIdAndFilename ? [{ id: search.toLowerCase() }, { filename: { contains: search, mode: 'insensitive' as const } }] : []),
              ],
            },
          ],
        }
      : {}),
  };
  const rows = await ctx.db.renderJob.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return pageOf(rows, limit, encodeCursor);
}
