import type { Tx } from '@svc/db';
import { releaseCredit, settleCredit } from '../credits/finish-reservation.ts';
import { taskPriority } from '../jobs/catalog.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { newId } from '../shared/ids.ts';
import { renderFinishedChannel } from './completion-waiter.ts';

export interface Artifact {
  mediaType: string;
  byteSize: number;
  /** A PDF's pages, as the renderer counted them. */
  pageCount?: number | null;
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
 * or released (failure, cancellation) exactly once, the input is dropped (a failed job keeps it
 * for the retention window, so an operator can retry it), a durable event
 * is recorded for webhook delivery, and waiting requests are woken. Returns false when
 * the job was no longer this claimer's to finish.
 */
export async function finishRender(tx: Tx, { jobId, attempt, outcome, now }: FinishRenderOptions): Promise<boolean> {
  const artifact = outcome.status === 'succeeded' ? outcome.artifact : null;
  const failure = outcome.status === 'failed' ? outcome : null;
  const type = eventType[outcome.status];
  // the terminal state, fenced by status and claim, and whether anyone listens for its event
  const finished = await tx.$queryRaw<{ account_id: string; subscribed: boolean; pending_members: boolean }[]>`
    WITH job AS (
      UPDATE render_jobs
         SET status = ${outcome.status}::"JobStatus", finished_at = ${now}, lease_expires_at = NULL,
             -- a preview job (credit none) is never billed, whatever its end
             credit = CASE WHEN credit = 'none' THEN credit ELSE ${outcome.status === 'succeeded' ? 'settled' : 'released'}::"JobCredit" END,
             media_type = ${artifact?.mediaType ?? null}, byte_size = ${artifact?.byteSize ?? null},
             page_count = ${artifact?.pageCount ?? null}::int, sha256 = ${artifact?.sha256 ?? null},
             storage_key = ${artifact?.storageKey ?? null}, expires_at = ${artifact?.expiresAt ?? null},
             error_category = ${failure?.category ?? null}, error_code = ${failure?.code ?? null}
       WHERE id = ${jobId}
         AND (${attempt === null} AND status IN ('queued', 'running') OR status = 'running' AND attempts = ${attempt ?? 0})
      RETURNING account_id)
    SELECT job.account_id,
           EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = job.account_id AND w.status = 'enabled' AND ${type} = ANY (w.events)) AS subscribed,
           EXISTS (SELECT 1 FROM render_group_members m WHERE m.account_id = job.account_id AND m.state = 'pending') AS pending_members
      FROM job`;
  const job = finished[0];
  if (!job) return false;
  if (outcome.status === 'succeeded') await settleCredit(tx, { jobId, now });
  else await releaseCredit(tx, { jobId, now });
  // the input goes (a failed job's stays until retention, for an operator's retry), the durable
  // event is recorded (once), and waiting requests are woken
  await tx.$executeRaw`
    WITH dropped AS (DELETE FROM render_inputs WHERE job_id = ${jobId} AND ${outcome.status !== 'failed'}),
         recorded AS (
           INSERT INTO render_events (id, account_id, job_id, type, created_at)
           VALUES (${newId('evt_')}, ${job.account_id}, ${jobId}, ${type}, ${now})
           ON CONFLICT (job_id, type) DO NOTHING)
    SELECT pg_notify(${renderFinishedChannel}, ${jobId})`;
  // delivery work is queued only for accounts with a destination for this kind of event,
  // so renders of accounts without webhooks cost the worker nothing more
  if (job.subscribed) await enqueue(tx, 'webhook_fan_out', { job_id: jobId }, { jobKey: `webhook-fan-out:${jobId}` });
  // a live slot freed: group members waiting for one are admitted in the background (spec 3.4)
  if (job.pending_members) {
    const options = { jobKey: `drain-render-groups:${job.account_id}`, priority: taskPriority.interactive };
    await enqueue(tx, 'drain_render_groups', { account_id: job.account_id }, options);
  }
  return true;
}
