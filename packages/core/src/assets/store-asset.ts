import { createHash } from 'node:crypto';
import type { ErrorCode } from '@svc/contracts';
import type { AssetKind, Tx } from '@svc/db';
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
  /** A font's family name (fonts only). */
  fontFamily?: string | null;
  /**
   * Checks made under the account lock, before the quota is counted (a brand kit's state and
   * asset count); answers the asset's position in its kit.
   */
  admit?: (tx: Tx) => Promise<{ position: number } | void>;
  /** Work in the same transaction once the record is written (a replacement marks the asset it replaces). */
  settle?: (tx: Tx, asset: AssetRecord) => Promise<void>;
}

/** Uploads of one account queue on its row lock: a burst of them waits rather than time out. */
const transactionLimits = { maxWait: 15_000, timeout: 15_000 };

const extensionOf: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'font/woff2': 'woff2' };

/**
 * Keeps one verified asset file: the bytes go to storage first, then, under a lock on the
 * account row (so concurrent uploads are counted one after the other), the quota is checked
 * and the record written. A refusal or any failure removes the stored bytes again, so a failed
 * upload leaves nothing and counts nothing.
 */
export async function storeAsset(ctx: ServiceContext, options: StoreAssetOptions): Promise<AssetRecord> {
  const { accountId, bytes } = options;
  const id = newId('asset_');
  const storageKey = `${accountId}/assets/${id}.${extensionOf[options.mediaType] ?? 'bin'}`;
  await ctx.storage.put(storageKey, bytes, { contentType: options.mediaType });
  try {
    return await ctx.db.$transaction(async (tx) => {
      // uploads of one account take turns on its row, so counting and writing cannot interleave
      await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
      const placed = await options.admit?.(tx);
      const [held] = await tx.$queryRaw<{ files: number; bytes: bigint }[]>`
        SELECT count(*)::int AS files, COALESCE(sum(byte_size), 0)::bigint AS bytes FROM assets WHERE account_id = ${accountId}`;
      const files = held?.files ?? 0;
      const total = Number(held?.bytes ?? 0n);
      if (files + 1 > accountAssetQuota.files || total + bytes.byteLength > accountAssetQuota.bytes) throw new DomainError(options.quotaCode);
      const asset = await tx.asset.create({
        data: {
          id,
          accountId,
          kind: options.kind,
          brandKitId: options.brandKitId ?? null,
          position: placed ? placed.position : null,
          fontFamily: options.fontFamily ?? null,
          mediaType: options.mediaType,
          byteSize: bytes.byteLength,
          width: options.width,
          height: options.height,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          storageKey,
          createdAt: ctx.clock(),
        },
      });
      await options.settle?.(tx, asset);
      return asset;
    }, transactionLimits);
  } catch (error) {
    await ctx.storage.remove(storageKey).catch((cause: unknown) => ctx.logger.error('asset file left behind', { storageKey, error: String(cause) }));
    throw error;
  }
}
