import { createHash } from 'node:crypto';
import type { AssetResolver } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { readAll } from '../storage/read-all.ts';

/**
 * The worker's answer to the page's asset requests: only the assets captured with the job,
 * read from storage and checked against the digest recorded at upload. Anything else is null,
 * which the renderer refuses (the job fails; the page never reaches a network).
 */
export function capturedAssetResolver(ctx: ServiceContext, jobId: string): AssetResolver {
  return storedAssetResolver(ctx, async () => {
    const rows = await ctx.db.renderJobAsset.findMany({ where: { jobId }, include: { asset: true } });
    return rows.map(({ asset }) => asset);
  });
}

/**
 * The answer to asset requests of a layout that belongs to no job (adapt): the account's own
 * assets, read as for renders. Without an account, every asset is refused.
 */
export function accountAssetResolver(ctx: ServiceContext, accountId: string | undefined): AssetResolver {
  return storedAssetResolver(ctx, async () => (accountId ? ctx.db.asset.findMany({ where: { accountId } }) : []));
}

type StoredAsset = { id: string; storageKey: string; mediaType: string; sha256: string; kind: string; fontFamily: string | null };

function storedAssetResolver(ctx: ServiceContext, allowed: () => Promise<StoredAsset[]>): AssetResolver {
  let captured: Promise<Map<string, StoredAsset>> | undefined;
  const load = async () => new Map((await allowed()).map((asset) => [`asset://${asset.id}`, asset]));
  return async (reference) => {
    captured ??= load();
    const asset = (await captured).get(reference);
    if (!asset) return null;
    const stored = await ctx.storage.open(asset.storageKey);
    if (!stored) throw new Error('a captured asset file is missing');
    const bytes = await readAll(stored.stream);
    if (createHash('sha256').update(bytes).digest('hex') !== asset.sha256) throw new Error('a captured asset file changed');
    // fonts are only ever brand kit fonts (the asset routes take images)
    return asset.kind === 'font' && asset.fontFamily ? { bytes, mediaType: asset.mediaType, fontFamily: asset.fontFamily } : { bytes, mediaType: asset.mediaType };
  };
}
