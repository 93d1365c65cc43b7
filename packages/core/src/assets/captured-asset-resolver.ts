import { createHash } from 'node:crypto';
import type { AssetResolver } from '../ports/render-engine.ts';
import type { ServiceContext } from '../shared/context.ts';

/**
 * The worker's answer to the page's asset requests: only the assets captured with the job,
 * read from storage and checked against the digest recorded at upload. Anything else is null,
 * which the renderer refuses (the job fails; the page never reaches a network).
 */
export function capturedAssetResolver(ctx: ServiceContext, jobId: string): AssetResolver {
  let captured: Promise<Map<string, { storageKey: string; mediaType: string; sha256: string }>> | undefined;
  const load = async () => {
    const rows = await ctx.db.renderJobAsset.findMany({ where: { jobId }, include: { asset: true } });
    return new Map(rows.map(({ asset }) => [`asset://${asset.id}`, asset]));
  };
  return async (reference) => {
    captured ??= load();
    const asset = (await captured).get(reference);
    if (!asset) return null;
    const stored = await ctx.storage.open(asset.storageKey);
    if (!stored) throw new Error('a captured asset file is missing');
    const chunks: Buffer[] = [];
    for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (createHash('sha256').update(bytes).digest('hex') !== asset.sha256) throw new Error('a captured asset file changed');
    return { bytes, mediaType: asset.mediaType };
  };
}
