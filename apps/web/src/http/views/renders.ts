import type { RenderHistoryItem, RenderJob } from '@svc/contracts';
import { mintDownloadLink, type RenderJobRecord, type ServiceContext } from '@svc/core';

/** The history shape of a job (the contract's render job): every job field except download. */
export function renderHistoryItem(job: RenderJobRecord): RenderHistoryItem {
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

/** The full job, with a download link minted now while the file is available. */
export async function renderJobBody(ctx: ServiceContext, job: RenderJobRecord): Promise<RenderJob> {
  const link = await mintDownloadLink(ctx, job);
  return { ...renderHistoryItem(job), download: link && { url: link.url, expires_at: link.expiresAt.toISOString() } };
}
