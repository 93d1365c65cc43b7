-- Render jobs waiting for a worker. Workers claim from here themselves (woken by NOTIFY
-- render_queued, one statement with FOR UPDATE SKIP LOCKED), not through graphile-worker's
-- task queue: a claim is one round trip instead of a task pickup and then a claim.
CREATE TABLE "render_queue" (
    "seq" BIGSERIAL NOT NULL,
    "job_id" TEXT NOT NULL,
    "bulk" BOOLEAN NOT NULL,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "render_queue_pkey" PRIMARY KEY ("seq")
);

CREATE UNIQUE INDEX "render_queue_job_id_key" ON "render_queue"("job_id");
CREATE INDEX "render_queue_bulk_seq_idx" ON "render_queue"("bulk", "seq");
ALTER TABLE "render_queue" ADD CONSTRAINT "render_queue_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "render_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- renders still waiting or running move from graphile-worker's queue to this one
INSERT INTO "render_queue" ("job_id", "bulk")
SELECT "id", "group_id" IS NOT NULL FROM "render_jobs" WHERE "status" IN ('queued', 'running') ORDER BY "created_at", "id";
DO $$
BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs
     WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks WHERE identifier IN ('render_job', 'render_group_member'));
  END IF;
END $$;
