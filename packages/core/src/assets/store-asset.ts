import { createHash } from 'node:crypto';
import type { ErrorCode } from '@svc/contracts';
import type { AssetKind } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { AssetRecord } from '../shared/records.ts';

/** Spec part 8: an account holds at most 100 image and brand asset files totalling 100 MiB. */
export const accountAssetQuota = { files: 100, bytes: 100 * 1024 * 1024 } as const;

export interface StoreAssetOptions {
  accountId: string;
  kind: AssetKind;
  brandKitId?: string | null;
  bytes: Uint8Array;
  mediaType: string;
  width: number | null;
  height: number | null;
  /** The code of a refusal by the account quota (image_asset_limit, brand_asset_account_limit_reached). */
  quotaCode: ErrorCode;
}

const extensionOf: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'font/woff2': 'woff2' };

/**
 * Keeps one verified asset file: the bytes go to storage first, then one statement counts the
 * file against the account's usage row and writes the record only if it fits. The conditional
 * upsert serialises concurrent uploads of an account on that row for the length of one
 * statement (no transaction holds a connection while it waits), so they never overshoot the
 * quota. A refusal or any failure removes the stored bytes again, so a failed upload leaves
 * nothing and counts nothing.
 */
export async function storeAsset(ctx: ServiceContext, options: StoreAssetOptions): Promise<AssetRecord> {
  const { accountId, bytes } = options;
  const id = newId('asset_');
  const size = bytes.byteLength;
  const storageKey = `${accountId}/assets/${id}.${extensionOf[options.mediaType] ?? 'bin'}`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await ctx.storage.put(storageKey, bytes, { contentType: options.mediaType });
  try {
    const { files, bytes: maxBytes } = accountAssetQuota;
    const rows = await ctx.db.$queryRaw<{ id: string }[]>`
      WITH counted AS (
        INSERT INTO account_asset_usage AS u (account_id, files, bytes) VALUES (${accountId}, 1, ${size}::bigint)
        ON CONFLICT (account_id) DO UPDATE SET files = u.files + 1, bytes = u.bytes + ${size}::bigint
         WHERE u.files + 1 <= ${files}::int AND u.bytes + ${size}::bigint <= ${maxBytes}::bigint
        RETURNING account_id)
      INSERT INTO assets (id, account_id, kind, brand_kit_id, media_type, byte_size, width, height, sha256, storage_key, created_at)
      SELECT ${id}, account_id, ${options.kind}::"AssetKind", ${options.brandKitId ?? null}::text, ${options.mediaType}, ${size}::int,
             ${options.width}::int, ${options.height}::int, ${sha256}, ${storageKey}, ${ctx.clock()}::timestamptz
        FROM counted
      RETURNING id`;
    if (rows.length === 0) throw new DomainError(options.quotaCode);
    return await ctx.db.asset.findUniqueOrThrow({ where: { id } });
  } catch (error) {
    await ctx.storage.remove(storageKey).catch((cause: unknown) => ctx.logger.error('asset file left behind', { storageKey, error: String(cause) }));
    throw error;
  }
}
