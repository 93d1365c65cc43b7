import { type RenderJobRecord, reportOf } from '@svc/core';
import { renderHistoryItem } from '../../http/views/renders.ts';
import { builder } from '../builder.ts';
import { ArtifactMediaTypeEnum, ArtifactRemovedReasonEnum, JobCreditEnum, JobErrorCategoryEnum, JobStatusEnum, RenderKindEnum } from './enums.ts';

type HistoryItem = ReturnType<typeof renderHistoryItem>;

const Artifact = builder.objectRef<NonNullable<HistoryItem['artifact']>>('RenderArtifact').implement({
  description: 'The stored file of a succeeded job (no download link: operators never receive customer files here).',
  fields: (t) => ({
    mediaType: t.field({ type: ArtifactMediaTypeEnum, resolve: (artifact) => artifact.media_type }),
    byteSize: t.exposeInt('byte_size'),
    sha256: t.exposeString('sha256'),
    expiresAt: t.field({ type: 'DateTime', resolve: (artifact) => new Date(artifact.expires_at) }),
    removedReason: t.field({ type: ArtifactRemovedReasonEnum, nullable: true, description: 'Set once the file is gone.', resolve: (artifact) => artifact.removed_reason }),
  }),
});

const RenderError = builder.objectRef<NonNullable<HistoryItem['error']>>('RenderError').implement({
  fields: (t) => ({
    category: t.field({ type: JobErrorCategoryEnum, resolve: (error) => error.category }),
    code: t.exposeString('code', { description: 'The job\'s error code, as REST answers it (a code of the error table, in its own spelling).' }),
  }),
});

const TemplateReference = builder.objectRef<NonNullable<HistoryItem['template']>>('RenderTemplateReference').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    version: t.exposeInt('version'),
  }),
});

export const RenderJob = builder.objectRef<RenderJobRecord>('RenderJob').implement({
  description:
    'A PDF or image render job; the fields REST shares have its values (GET /v1/pdf/{id}, /v1/image/{id}). The html, data and file are never exposed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: RenderKindEnum, resolve: (job) => job.kind }),
    accountId: t.exposeID('accountId'),
    keyId: t.exposeID('keyId', { nullable: true, description: 'The API key that created the job; null for a browser session or a key revoked before a retry.' }),
    reference: t.string({ nullable: true, resolve: (job) => renderHistoryItem(job).reference ?? null }),
    status: t.field({ type: JobStatusEnum, resolve: (job) => renderHistoryItem(job).status }),
    credit: t.field({ type: JobCreditEnum, resolve: (job) => renderHistoryItem(job).credit }),
    createdAt: t.field({ type: 'DateTime', resolve: (job) => job.createdAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (job) => job.startedAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (job) => job.finishedAt }),
    template: t.field({ type: TemplateReference, nullable: true, resolve: (job) => renderHistoryItem(job).template }),
    artifact: t.field({ type: Artifact, nullable: true, resolve: (job) => renderHistoryItem(job).artifact }),
    error: t.field({ type: RenderError, nullable: true, resolve: (job) => renderHistoryItem(job).error }),
    attempts: t.exposeInt('attempts', { description: 'Times a worker claimed the job.' }),
    removedFromHistory: t.boolean({ description: 'Whether the customer removed the failed or cancelled job from history (DELETE).', resolve: (job) => job.hiddenAt !== null }),
    retryOf: t.exposeID('retryOf', { nullable: true, description: 'The failed job an operator retried to make this one.' }),
    report: t.field({
      type: 'JSON',
      description:
        'The render report, as GET /v1/pdf/{id}/report and /v1/image/{id}/report answer it (the RenderReport schema of the OpenAPI document): ' +
        'problems, fonts, timing and the file. A job that has not ended has its status with empty lists and nulls.',
      resolve: (job) => reportOf(job),
    }),
  }),
});
