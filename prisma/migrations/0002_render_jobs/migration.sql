-- Render jobs, their inputs, idempotency records, rate-limit buckets, terminal events, settings.

CREATE TYPE "RenderKind" AS ENUM ('pdf', 'image');
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');
CREATE TYPE "JobCredit" AS ENUM ('reserved', 'settled', 'released', 'none');
CREATE TYPE "RemovedReason" AS ENUM ('expired', 'deleted');

CREATE TABLE "render_jobs" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT,
    "kind" "RenderKind" NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "credit" "JobCredit" NOT NULL DEFAULT 'reserved',
    "reference" TEXT,
    "filename" TEXT NOT NULL,
    "template_id" TEXT,
    "template_version" INTEGER,
    "options" JSONB NOT NULL,
    "media_type" TEXT,
    "byte_size" INTEGER,
    "sha256" TEXT,
    "storage_key" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "removed_reason" "RemovedReason",
    "error_category" TEXT,
    "error_code" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_expires_at" TIMESTAMPTZ(3),
    "hidden_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "render_jobs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "render_jobs_account_id_kind_created_at_id_idx" ON "render_jobs"("account_id", "kind", "created_at" DESC, "id" DESC);
CREATE INDEX "render_jobs_account_id_status_idx" ON "render_jobs"("account_id", "status");
CREATE INDEX "render_jobs_key_id_status_idx" ON "render_jobs"("key_id", "status");
CREATE INDEX "render_jobs_status_lease_expires_at_idx" ON "render_jobs"("status", "lease_expires_at");
CREATE INDEX "render_jobs_status_expires_at_idx" ON "render_jobs"("status", "expires_at");

CREATE TABLE "render_inputs" (
    "job_id" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    CONSTRAINT "render_inputs_pkey" PRIMARY KEY ("job_id")
);

CREATE TABLE "idempotency_records" (
    "account_id" TEXT NOT NULL,
    "kind" "RenderKind" NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("account_id", "kind", "key")
);

CREATE TABLE "rate_limit_buckets" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "rate_limit_buckets_pkey" PRIMARY KEY ("key")
);

CREATE TABLE "render_events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "render_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "render_events_job_id_type_key" ON "render_events"("job_id", "type");
CREATE INDEX "render_events_account_id_created_at_idx" ON "render_events"("account_id", "created_at");

CREATE TABLE "service_settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "service_settings_pkey" PRIMARY KEY ("key")
);

ALTER TABLE "render_jobs" ADD CONSTRAINT "render_jobs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_inputs" ADD CONSTRAINT "render_inputs_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "render_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_events" ADD CONSTRAINT "render_events_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "render_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
