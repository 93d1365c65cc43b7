import type { RenderHistoryItem, RenderJob as RenderJobView } from '@svc/contracts';
import type { RenderJob } from '@svc/db';
import { signDownloadToken } from '../downloads/download-token.ts';
import type { ServiceContext } from '../shared/context.ts';
import { signingSecret } from '../settings/signing-secret.ts';

/** The history shape of a job (spec 2.3): every job field except download. */
export function toHistoryItem(job: RenderJob): RenderHistoryItem {
  return {
    id: job.id,
    ...(job.reference !== null ? { reference: job.reference } : {}),
    status: job.status,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    template: job.templateId && job.templateVersion ? { id: job.templateId, version: job.templateVersion } : null,
    credit: job.credit,
    artifact:
      job.status === 'succeeded' && job.mediaType && job.sha256 && job.expiresAt && job.byteSize !== null
        ? {
            media_type: job.mediaType as 'application/pdf',
            byte_size: job.byteSize,
            sha256: job.sha256,
            expires_at: job.expiresAt.toISOString(),
            removed_reason: job.removedReason,
          }
        : null,
    error: job.status === 'failed' && job.errorCategory && job.errorCode ? { category: job.errorCategory as 'internal_failure', code: job.errorCode } : null,
  };
}

/** The full job with a download link minted now, while the file is available. */
export async function toJobView(ctx: ServiceContext, job: RenderJob): Promise<RenderJobView> {
  const item = toHistoryItem(job);
  const now = ctx.clock();
  const available = job.status === 'succeeded' && job.removedReason === null && job.expiresAt !== null && job.expiresAt > now;
  if (!available || !job.expiresAt) return { ...item, download: null };
  const expiresAt = new Date(Math.min(now.getTime() + ctx.config.downloadLinkMs, job.expiresAt.getTime()));
  const token = signDownloadToken(await signingSecret(ctx), job.id, expiresAt);
  return { ...item, download: { url: `${ctx.config.publicUrl}/v1/downloads/${token}`, expires_at: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000).toISOString() } };
}
