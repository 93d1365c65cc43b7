-- The internal GraphQL API: operator tokens, the audit log of operator actions, testimonial
-- review, the worker instances serviceStatus counts, and retries of failed render jobs.

CREATE TABLE "operator_tokens" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "verifier" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "operator_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "operator_tokens_verifier_key" ON "operator_tokens"("verifier");

CREATE TABLE "operator_audit_log" (
    "id" BIGSERIAL NOT NULL,
    "operator_token_id" TEXT NOT NULL,
    "operator_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "operator_audit_log_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "operator_audit_log_operator_token_id_fkey" FOREIGN KEY ("operator_token_id") REFERENCES "operator_tokens"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "operator_audit_log_target_id_created_at_idx" ON "operator_audit_log"("target_id", "created_at");
CREATE INDEX "operator_audit_log_created_at_idx" ON "operator_audit_log"("created_at");

ALTER TABLE "testimonials" ADD COLUMN "reviewed_at" TIMESTAMPTZ(3),
                           ADD COLUMN "reviewed_by" TEXT;
CREATE INDEX "testimonials_reviewed_at_created_at_idx" ON "testimonials"("reviewed_at", "created_at");

CREATE TABLE "worker_instances" (
    "id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "browser_launches" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "worker_instances_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "worker_instances_last_seen_at_idx" ON "worker_instances"("last_seen_at");

ALTER TABLE "render_jobs" ADD COLUMN "retry_of" TEXT;
CREATE UNIQUE INDEX "render_jobs_retry_of_key" ON "render_jobs"("retry_of");

-- operators page through every account's jobs and accounts, newest first
CREATE INDEX "render_jobs_created_at_id_idx" ON "render_jobs"("created_at" DESC, "id" DESC);
CREATE INDEX "accounts_created_at_id_idx" ON "accounts"("created_at" DESC, "id" DESC);
