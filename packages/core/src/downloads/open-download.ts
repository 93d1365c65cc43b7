import type { Readable } from 'node:stream';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { downloadLinkTokens, readLinkToken } from '../shared/link-token.ts';
import { extensionOf } from '../renders/filename.ts';
import { signingSecret } from '../settings/signing-secret.ts';

export interface OpenedDownload {
  stream: Readable;
  mediaType: string;
  byteSize: number;
  filename: string;
}

/**
 * Serves a signed download link. A forged or unknown token, or a file that is gone,
 * answers 404; a genuine link past its expiry answers 403 download_expired.
 */
export async function openDownload(ctx: ServiceContext, token: string): Promise<OpenedDownload> {
  const check = readLinkToken(downloadLinkTokens, await signingSecret(ctx), token);
  if (!check.valid) throw notFound();
  if (check.expiresAt <= ctx.clock()) throw new DomainError('download_expired');
  const job = await ctx.db.renderJob.findUnique({ where: { id: check.id } });
  if (!job || job.status !== 'succeeded' || job.removedReason !== null || !job.storageKey || !job.mediaType) throw notFound();
  const stored = await ctx.storage.open(job.storageKey);
  if (!stored) throw notFound();
  return {
    stream: stored.stream,
    mediaType: job.mediaType,
    byteSize: stored.byteSize,
    filename: `${job.filename}.${extensionOf[job.mediaType] ?? 'bin'}`,
  };
}
