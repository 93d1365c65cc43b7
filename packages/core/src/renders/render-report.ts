// The render report of one job (docs/render-report.md): the renderer's findings plus the job's
// own facts. The finish writes it (storedReport, inside finishRender's statement); a job
// without one (queued, running, or ended before reports were kept) is answered from its record.
import { emptyFindings, maxReportEntries, type RenderFindings, RenderReport, ReportProblem } from '@svc/contracts';
import { Prisma } from '@svc/db';
import type { RenderJobRecord } from '../shared/records.ts';

/** What the worker measured of one finish; omitted when the render never ran (a cancellation). */
export interface ReportInput {
  /** the renderer's findings, or null when it failed before it found anything */
  findings: RenderFindings | null;
  /** milliseconds the file took to store; null when nothing was stored */
  storageMs: number | null;
}

interface FinishFacts {
  jobId: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  now: Date;
  /** the stored file, on success */
  artifact: { mediaType: string; byteSize: number; pageCount?: number | null } | null;
}

/**
 * The report a finish writes, as an SQL expression over the row being finished (render_jobs):
 * the part the worker knows is built here, and the job's facts come from the row itself in the
 * same statement: its script mode and image size (its options) and its queue wait (from its
 * creation, when it became runnable, to its first claim).
 */
export function storedReport(facts: FinishFacts, input: ReportInput | undefined): Prisma.Sql {
  const findings = capped(input?.findings ?? emptyFindings());
  const { artifact } = facts;
  const base: RenderReport = {
    object: 'render_report',
    id: facts.jobId,
    status: facts.status,
    created_at: facts.now.toISOString(),
    output: artifact
      ? { media_type: artifact.mediaType, byte_size: artifact.byteSize, pages: artifact.pageCount ?? null, width: null, height: null }
      : null,
    fonts: findings.fonts,
    // the mode is the job's own (set below from its options)
    script: { mode: 'disabled', ...findings.script },
    timing: { queue_wait_ms: null, ...findings.timing, storage_ms: input?.storageMs ?? null },
    paged: findings.paged,
    problems: findings.problems,
    omitted: findings.omitted,
  };
  const withJobFacts = Prisma.sql`jsonb_set(jsonb_set(${JSON.stringify(base)}::jsonb,
      '{script,mode}', to_jsonb(COALESCE(options->>'javascript', 'disabled'))),
      '{timing,queue_wait_ms}',
      -- GREATEST ignores a null, so a job never claimed is told apart first
      CASE WHEN started_at IS NULL THEN 'null'::jsonb
           ELSE to_jsonb(GREATEST(0, floor(extract(epoch FROM started_at - created_at) * 1000))::int) END)`;
  if (!artifact) return withJobFacts;
  // an image's size from its options; any other output keeps the nulls it has (the report's
  // JSON is sent once, not once for each branch)
  return Prisma.sql`jsonb_set(jsonb_set(${withJobFacts},
      '{output,width}', CASE WHEN kind = 'image' THEN options #> '{image,width}' ELSE 'null'::jsonb END),
      '{output,height}', CASE WHEN kind = 'image' THEN options #> '{image,height}' ELSE 'null'::jsonb END)`;
}

const reportFont = RenderReport.shape.fonts.element;
const reportPaged = RenderReport.shape.paged;

/**
 * The findings as the contract publishes them, whatever the renderer sent: an entry the
 * report's schema refuses is left out (a problem is counted in omitted), times are whole
 * milliseconds, and each list stops at the cap (problems past it counted in omitted, fonts
 * past it dropped, as the contract says). So a stored report always answers as it is.
 */
function capped(findings: RenderFindings): RenderFindings {
  const problems = findings.problems.filter((problem) => ReportProblem.safeParse(problem).success);
  const fonts = findings.fonts.filter((font) => reportFont.safeParse(font).success);
  const over = Math.max(0, problems.length - maxReportEntries);
  const timing = Object.fromEntries(
    Object.entries(findings.timing).map(([stage, ms]) => [stage, ms === null || !Number.isFinite(ms) ? null : Math.max(0, Math.round(ms))]),
  ) as RenderFindings['timing'];
  const count = (value: number) => (Number.isInteger(value) && value >= 0 ? value : 0);
  return {
    fonts: fonts.slice(0, maxReportEntries),
    script: { script_elements: count(findings.script.script_elements), event_handlers: count(findings.script.event_handlers) },
    problems: problems.slice(0, maxReportEntries),
    omitted: count(findings.omitted) + over + (findings.problems.length - problems.length),
    timing,
    // counts the contract refuses are left out whole (the layout's own problems stay)
    paged: reportPaged.safeParse(findings.paged).data ?? null,
  };
}

/**
 * The report of a job that has none stored: one not finished yet (queued or running: empty
 * lists, nulls for every stage), or one that ended before reports were kept (its file from the
 * record, nothing of what the renderer saw).
 */
export function reportOfRecord(job: RenderJobRecord): RenderReport {
  const options = job.options as { javascript?: 'enabled' | 'disabled'; image?: { width: number; height: number } };
  const finished = job.status !== 'queued' && job.status !== 'running';
  const file = job.status === 'succeeded' && job.mediaType !== null && job.byteSize !== null;
  const image = job.kind === 'image' ? (options.image ?? null) : null;
  return {
    object: 'render_report',
    id: job.id,
    status: job.status,
    created_at: finished ? (job.finishedAt ?? job.createdAt).toISOString() : null,
    output: file ? { media_type: job.mediaType!, byte_size: job.byteSize!, pages: job.pageCount, width: image?.width ?? null, height: image?.height ?? null } : null,
    fonts: [],
    script: { mode: options.javascript ?? 'disabled', script_elements: 0, event_handlers: 0 },
    timing: {
      queue_wait_ms: job.startedAt ? Math.max(0, job.startedAt.getTime() - job.createdAt.getTime()) : null,
      ...emptyFindings().timing,
      storage_ms: null,
    },
    paged: null,
    problems: [],
    omitted: 0,
  };
}

/** The job's report: the stored one, or the one its record gives. */
export function reportOf(job: RenderJobRecord): RenderReport {
  return (job.report as RenderReport | null) ?? reportOfRecord(job);
}
