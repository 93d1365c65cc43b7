import type { Prisma, Tx } from '@svc/db';
import { releaseCredit, settleCredit } from '../credits/finish-reservation.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { newId } from '../shared/ids.ts';
import { renderFinishedChannel } from './completion-waiter.ts';

export interface Artifact {
  mediaType: string;
  byteSize: number;
  sha256: string;
  storageKey: string;
  expiresAt: Date;
}

export type Outcome = { status: 'succeeded'; artifact: Artifact } | { status: 'failed'; category: string; code: string } | { status: 'cancelled' };

const eventType = { succeeded: 'render.succeeded', failed: 'render.failed', cancelled: 'render.cancelled' } as const;

export interface FinishRenderOptions {
  jobId: string;
  /** The claim being finished (fencing): a stale claimer cannot finish a job taken over by another. */
  attempt: number | null;
  outcome: Outcome;
  now: Date;
}

/**
 * Moves a job to its terminal state in one transaction: the credit is settled (success)
 * or released (failure, cancellation) exactly once, the input is dropped, a durable event
 * is recorded for webhook delivery, and waiting requests are woken. Returns false when
 * the job was no longer this claimer's to finish.
 */
export async function finishRender(tx: Tx, { jobId, attempt, outcome, now }: FinishRenderOptions): Promise<boolean> {
  const data: Prisma.RenderJobUpdateManyMutationInput = {
    status: outcome.status,
    finishedAt: now,
    leaseExpiresAt: null,
    credit: outcome.status === 'succeeded' ? 'settled' : 'released',
    ...(outcome.status === 'succeeded'
      ? {
          mediaType: outcome.artifact.mediaType,
          byteSize: outcome.artifact.byteSize,
          sha256: outcome.artifact.sha256,
          storageKey: outcome.artifact.storageKey,
          expiresAt: outcome.artifact.expiresAt,
        }
      : {}),
    ...(outcome.status === 'failed' ? { errorCategory: outcome.category, errorCode: outcome.code } : {}),
  };
  const updated = await tx.renderJob.updateMany({
    where: { id: jobId, status: attempt === null ? { in: ['queued', 'running'] } : 'running', ...(attempt === null ? {} : { attempts: attempt }) },
    data,
  });
  if (updated.count === 0) return false;
  const job = await tx.renderJob.findUniqueOrThrow({ where: { id: jobId }, select: { accountId: true } });
  if (outcome.status === 'succeeded') await settleCredit(tx, { jobId, now });
  else await releaseCredit(tx, { jobId, now });
  await tx.renderInput.deleteMany({ where: { jobId } });
  await tx.renderEvent.createMany({
    data: [{ id: newId('evt_'), accountId: job.accountId, jobId, type: eventType[outcome.status], createdAt: now }],
    skipDuplicates: true,
  });
  // delivery work is queued only for accounts with a destination for this kind of event,
  // so renders of accounts without webhooks cost the worker nothing more
  const subscribed = await tx.webhook.count({ where: { accountId: job.accountId, status: 'enabled', events: { has: eventType[outcome.status] } } });
  if (subscribed > 0) await enqueue(tx, 'webhook_fan_out', { job_id: jobId }, { jobKey: `webhook-fan-out:${jobId}` });
  await tx.$executeRaw`SELECT pg_notify(${renderFinishedChannel}, ${jobId})`;
  return true;
}
