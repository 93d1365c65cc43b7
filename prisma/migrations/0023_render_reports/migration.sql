-- The render report (docs/render-report.md): what the service saw while it rendered the job,
-- written by the statement that finishes the job, so it never disagrees with the job's state.
-- Null until the job ends (and for jobs that ended before reports were kept).
ALTER TABLE "render_jobs" ADD COLUMN "report" JSONB;
