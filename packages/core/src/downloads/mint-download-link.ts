import type { ServiceContext } from '../shared/context.ts';
import { downloadLinkTokens, signLinkToken } from '../shared/link-token.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { signingSecret } from '../settings/signing-secret.ts';

export interface DownloadLink {
  url: string;
  /** Whole seconds: the token carries its expiry in unix seconds. */
  expiresAt: Date;
}

/**
 * A signed link to a job's file, minted now, while the file is available; null otherwise.
 * It lives SVC_DOWNLOAD_LINK_MINUTES, never past the file's retention.
 */
export async function mintDownloadLink(ctx: ServiceContext, job: RenderJobRecord): Promise<DownloadLink | null> {
  const now = ctx.clock();
  const available = job.status === 'succeeded' && job.removedReason === null && job.expiresAt !== null && job.expiresAt > now;
  if (!available || !job.expiresAt) return null;
  const expiresAt = new Date(Math.min(now.getTime() + ctx.config.downloadLinkMs, job.expiresAt.getTime()));
  const token = signLinkToken(downloadLinkTokens, await signingSecret(ctx), job.id, expiresAt);
  return { url: `${ctx.config.publicUrl}/v1/downloads/${token}`, expiresAt: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000) };
}
