import type { JobErrorCategory } from '@svc/contracts';
import { type DbOrTx, Prisma, queryRows } from '@svc/db';
import { release, settlement } from '../credits/finish-reservation.ts';
import { taskPriority } from '../tasks/catalog.ts';
import { addJob, addJobOf } from '../tasks/enqueue.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { newId } from '../shared/ids.ts';
import { listeningWebhooks } from '../webhooks/listening-webhooks.ts';
import { renderFinishedNotice } from './render-job-store.ts';
import { type ReportInput, storedReport } from './render-report.ts';

export interface Artifact {
  mediaType: string;
  byteSize: number;
  /** A PDF's pages, as the renderer counted them. */
  pageCount?: number | null;
  sha256: string;
  storageKey: string;
  expiresAt: Date;
}

export type Outcome = { status: 'succeeded'; artifact: Artifact } | { status: 'failed'; category: JobErrorCategory; code: string } | { status: 'cancelled' };

const eventType = { succeeded: 'render.succeeded', failed: 'render.failed', cancelled: 'render.cancelled' } as const;

/** The job's options without pdf.password, marked pdf_password_erased (unchanged when there is none). */
const erasePdfPassword = Prisma.sql`CASE WHEN options #> '{pdf,password}' IS NULL THEN options
  ELSE jsonb_set(options #- '{pdf,password}', '{pdf_password_erased}', 'true'::jsonb) END`;

/** Whether a finished job's options carry the marker: its PDF has an open password the service no longer knows. */
export function passwordErased(options: unknown): boolean {
  return typeof options === 'object' && options !== null && (options as { pdf_password_erased?: unknown }).pdf_password_erased === true;
}

/**
 * The account's pending group members are admitted (a drain task) when a job of the account
 * ends and fewer than this many of its member jobs still wait in the queue: the freed slot
 * takes one of those, and the drain tops the members up before the last is taken. A drain then
 * admits two members or more at a time rather than one per finished job, and each drain is a
 * task and a transaction of its own (with SVC_GROUP_CONCURRENCY 2, or members held back by the
 * account's or key's limits, it still runs at every end).
 */
const drainBelowQueued = 2;

export interface FinishRenderOptions {
  jobId: string;
  /** The claim being finished (fencing): a stale claimer cannot finish a job taken over by another. */
  attempt: number | null;
  outcome: Outcome;
  now: Date;
  /** What the render measured, for the job's report; omitted when it never ran (a cancellation). */
  report?: ReportInput;
  /** Where the finish is counted (the service context's). */
  metrics: ServiceMetrics;
}

/**
 * Moves a job to its terminal state in one statement, so it is atomic with or without a
 * transaction around it: the credit is settled (success) or released (failure, cancellation)
 * exactly once, the render report is written (docs/render-report.md), the input is dropped (a failed job keeps it for the retention window, so an
 * operator can retry it), a durable event is recorded for webhook delivery, waiting requests
 * are woken, and the follow-up work is queued: the webhook fan-out when a destination listens
 * for this kind of event (accounts without webhooks cost the worker nothing more), and the
 * admission of the account's pending group members, since a live slot freed (the contract's
 * group lifecycle; see drainBelowQueued). A PDF's
 * thumbnail is not queued here: the dashboard asks for one when its history first shows the
 * render (request-render-thumbnails.ts), so the renders nobody looks at there, most of an API
 * account's, cost no rasteriser time. A PDF
 * open password is a secret of the customer's that the service needs only to render: it is
 * erased from the stored options here, on every terminal transition, and a marker says so.
 * Returns false when the job was no longer this claimer's to finish.
 */
export async function finishRender(db: DbOrTx, { jobId, attempt, outcome, now, report, metrics }: FinishRenderOptions): Promise<boolean> {
  const artifact = outcome.status === 'succeeded' ? outcome.artifact : null;
  const reportSql = storedReport({ jobId, status: outcome.status, now, artifact }, report);
  const failure = outcome.status === 'failed' ? outcome : null;
  const type = eventType[outcome.status];
  const credit = outcome.status === 'succeeded' ? settlement(Prisma.sql`job`, now) : release(Prisma.sql`job`, now);
  const fanOut = addJob('webhook_fan_out', { job_id: jobId }, { jobKey: `webhook-fan-out:${jobId}` });
  // enqueued as interactive, unlike the sweep: a slot just freed
  const drain = addJobOf('drain_render_groups', Prisma.sql`json_build_object('account_id', job.account_id)`, {
    jobKey: Prisma.sql`'drain-render-groups:' || job.account_id`,
    priority: taskPriority.interactive,
  });
  const finished = await queryRows<FinishedRow>(
    db,
    Prisma.sql`
    WITH job AS (
      UPDATE render_jobs
         SET status = ${outcome.status}::"JobStatus", finished_at = ${now}, lease_expires_at = NULL,
             -- a preview job (credit none) is never billed, whatever its end
             credit = CASE WHEN credit = 'none' THEN credit ELSE ${outcome.status === 'succeeded' ? 'settled' : 'released'}::"JobCredit" END,
             media_type = ${artifact?.mediaType ?? null}, byte_size = ${artifact?.byteSize ?? null},
             page_count = ${artifact?.pageCount ?? null}::int, sha256 = ${artifact?.sha256 ?? null},
             storage_key = ${artifact?.storageKey ?? null}, expires_at = ${artifact?.expiresAt ?? null},
             error_category = ${failure?.category ?? null}, error_code = ${failure?.code ?? null},
             report = ${reportSql},
             options = ${erasePdfPassword}
       WHERE id = ${jobId}
         AND (${attempt === null} AND status IN ('queued', 'running') OR status = 'running' AND attempts = ${attempt ?? 0})
      RETURNING *),
    dropped AS (DELETE FROM render_inputs WHERE job_id IN (SELECT id FROM job) AND ${outcome.status !== 'failed'}),
    recorded AS (
      INSERT INTO render_events (id, account_id, job_id, type, created_at)
      SELECT ${newId('evt_')}, account_id, id, ${type}, ${now}::timestamptz FROM job
      ON CONFLICT (job_id, type) DO NOTHING),
    ${credit}
    SELECT job.account_id, job.kind::text AS kind, job.created_at, job.started_at,
           (SELECT COALESCE(sum(amount), 0)::int FROM ${Prisma.raw(outcome.status === 'succeeded' ? 'settled' : 'released')}) AS credits,
           ${renderFinishedNotice} IS NOT NULL AS notified,
           CASE WHEN EXISTS (${listeningWebhooks(Prisma.sql`job.account_id`, type)})
                THEN (SELECT 1 FROM ${fanOut}) END AS fanned_out,
           CASE WHEN EXISTS (SELECT 1 FROM render_group_members m WHERE m.account_id = job.account_id AND m.state = 'pending')
                 AND (SELECT count(*) FROM render_jobs waiting
                       WHERE waiting.account_id = job.account_id AND waiting.status = 'queued' AND waiting.group_id IS NOT NULL AND waiting.id <> job.id) < ${drainBelowQueued}
                THEN (SELECT 1 FROM ${drain}) END AS drained
      FROM job`,
  );
  const [row] = finished;
  if (row) countFinish(metrics, row, outcome, now);
  return row !== undefined;
}

interface FinishedRow {
  account_id: string;
  kind: string;
  /** credits the finish settled (success) or released */
  credits: number;
  created_at: Date;
  started_at: Date | null;
}

function countFinish(metrics: ServiceMetrics, row: FinishedRow, outcome: Outcome, now: Date): void {
  const { kind } = row;
  metrics.rendersFinished.inc({ kind, outcome: outcome.status, error_category: outcome.status === 'failed' ? outcome.category : 'none' });
  if (row.started_at) {
    metrics.renderDuration.observe({ kind, outcome: outcome.status }, (now.getTime() - row.started_at.getTime()) / 1000);
    metrics.renderQueueWait.observe({ kind }, (row.started_at.getTime() - row.created_at.getTime()) / 1000);
  }
  if (row.credits > 0) metrics.creditChanges.inc({ change: outcome.status === 'succeeded' ? 'settled' : 'released' }, row.credits);
}
