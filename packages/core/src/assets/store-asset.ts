import { createHash } from 'node:crypto';
import { assetIdPrefix, type ErrorCode } from '@svc/contracts';
import type { AssetKind, DbOrTx, Tx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { AssetRecord } from '../shared/records.ts';

/** The contract's limits: an account holds at most 100 image and brand asset files totalling 100 MiB. */
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
  /** A font's family name (fonts only). */
  fontFamily?: string | null;
  /**
   * Checks made in the write's transaction before the quota is counted (a brand kit's state
   * and asset count, under the kit's row lock); answers the asset's position in its kit.
   */
  admit?: (tx: Tx) => Promise<{ position: number } | void>;
  /** Work in the same transaction once the record is written (a replacement marks the asset it replaces). */
  settle?: (tx: Tx, asset: AssetRecord) => Promise<void>;
}

/** Brand uploads of one account queue on its usage row: a burst of them waits rather than time out. */
const transactionLimits = { maxWait: 15_000, timeout: 15_000 };

const extensionOf: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'font/woff2': 'woff2' };

/**
 * Keeps one verified asset file: the bytes go to storage first, then one statement counts the
 * file against the account's usage row and writes the record only if it fits. The conditional
 * upsert serialises concurrent uploads of an account on that row for the length of one
 * statement (no transaction holds a connection while it waits), so they never overshoot the
 * quota. A brand asset's kit checks and a replacement's mark share a transaction with that
 * statement. A refusal or any failure removes the stored bytes again, so a failed upload
 * leaves nothing and counts nothing.
 */
export async function storeAsset(ctx: ServiceContext, options: StoreAssetOptions): Promise<AssetRecord> {
  const { accountId, bytes } = options;
  const id = newId(assetIdPrefix);
  const size = bytes.byteLength;
  const storageKey = `${accountId}/assets/${id}.${extensionOf[options.mediaType] ?? 'bin'}`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await ctx.storage.put(storageKey, bytes, { contentType: options.mediaType });
  try {
    if (!options.admit && !options.settle) return await countAndWrite(ctx.db, options, { id, size, sha256, storageKey, position: null, now: ctx.clock() });
    // a brand asset: the kit's checks, the count and the write, and the replacement's mark, all or nothing
    return await ctx.db.$transaction(async (tx) => {
      const placed = await options.admit?.(tx);
      const asset = await countAndWrite(tx, options, { id, size, sha256, storageKey, position: placed ? placed.position : null, now: ctx.clock() });
      await options.settle?.(tx, asset);
      return asset;
    }, transactionLimits);
  } catch (error) {
    await ctx.storage.remove(storageKey).catch((cause: unknown) => ctx.logger.error('asset file left behind', { storageKey, error: String(cause) }));
    throw error;
  }
}

/**
 * One statement: counts the file against the account's usage row and writes the record only
 * if it fits; otherwise refuses with the caller's quota code.
 */
async function countAndWrite(
  db: DbOrTx,
  options: StoreAssetOptions,
  file: { id: string; size: number; sha256: string; storageKey: string; position: number | null; now: Date },
): Promise<AssetRecord> {
  const { files, bytes: maxBytes } = accountAssetQuota;
  const { id, size, sha256, storageKey, position, now } = file;
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH counted AS (
      INSERT INTO account_asset_usage AS u (account_id, files, bytes) VALUES (${options.accountId}, 1, ${size}::bigint)
      ON CONFLICT (account_id) DO UPDATE SET files = u.files + 1, bytes = u.bytes + ${size}::bigint
       WHERE u.files + 1 <= ${files}::int AND u.bytes + ${size}::bigint <= ${maxBytes}::bigint
      RETURNING account_id)
    INSERT INTO assets (id, account_id, kind, brand_kit_id, position, font_family, media_type, byte_size, width, height, sha256, storage_key, created_at)
    SELECT ${id}, account_id, ${options.kind}::"AssetKind", ${options.brandKitId ?? null}::text, ${position}::int, ${options.fontFamily ?? null}::text,
           ${options.mediaType}, ${size}::int, ${options.width}::int, ${options.height}::int, ${sha256}, ${storageKey}, ${now}::timestamptz
      FROM counted
    RETURNING id`;
  if (rows.length === 0) throw new DomainError(options.quotaCode);
  return db.asset.findUniqueOrThrow({ where: { id } });
}
