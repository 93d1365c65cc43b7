-- AI template builds and chats (spec 2.7, 3.2, 4.7, 4.8): a build holds its current draft and
-- what it published; a saved template's chat is a build tied to the template. Each message is
-- one run of the AI pipeline with its own state, phase, credits, draft, the customer's decision
-- on it (chats) and the model's image proposal. Idempotency keys are kept per account and scope.

CREATE TYPE "TemplateMessageState" AS ENUM ('queued', 'running', 'previewing', 'succeeded', 'failed', 'cancelled');
CREATE TYPE "TemplateMessagePhase" AS ENUM ('generate', 'candidate', 'review', 'final');

CREATE TABLE "template_builds" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "brand_kit_id" TEXT NOT NULL,
    "input_mode" "TemplateInputMode",
    "draft" JSONB,
    "draft_message_id" TEXT,
    "published_template_id" TEXT,
    "published_version" INTEGER,
    "published_message_id" TEXT,
    "template_id" TEXT,
    "reviewed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "template_builds_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "template_builds_account_id_created_at_idx" ON "template_builds"("account_id", "created_at");
CREATE UNIQUE INDEX "template_builds_template_id_key" ON "template_builds"("template_id");

CREATE TABLE "template_messages" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "build_id" TEXT NOT NULL,
    "key_id" TEXT,
    "brand_kit_id" TEXT NOT NULL,
    "state" "TemplateMessageState" NOT NULL DEFAULT 'queued',
    "phase" "TemplateMessagePhase" NOT NULL DEFAULT 'generate',
    "input_type" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "output_intent" JSONB,
    "output" JSONB,
    "credits" INTEGER NOT NULL,
    "preview_id" TEXT,
    "review_count" INTEGER NOT NULL DEFAULT 0,
    "max_reviews" INTEGER NOT NULL,
    "repair_code" TEXT,
    "failure_category" TEXT,
    "failure_code" TEXT,
    "draft" JSONB,
    "decision" TEXT,
    "applied_version" INTEGER,
    "image_proposal" JSONB,
    "image_proposal_state" TEXT,
    "image_proposal_applied" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "template_messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "template_messages_credits_check" CHECK ("credits" IN (0, 25, 50)),
    CONSTRAINT "template_messages_reviews_check" CHECK ("review_count" BETWEEN 0 AND 5 AND "max_reviews" BETWEEN 0 AND 5)
);
CREATE INDEX "template_messages_build_id_created_at_idx" ON "template_messages"("build_id", "created_at");
CREATE INDEX "template_messages_state_lease_expires_at_idx" ON "template_messages"("state", "lease_expires_at");
CREATE INDEX "template_messages_preview_id_idx" ON "template_messages"("preview_id");

CREATE TABLE "template_message_idempotency" (
    "account_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "template_message_idempotency_pkey" PRIMARY KEY ("account_id", "scope", "key")
);

ALTER TABLE "template_builds" ADD CONSTRAINT "template_builds_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_builds" ADD CONSTRAINT "template_builds_brand_kit_id_fkey" FOREIGN KEY ("brand_kit_id") REFERENCES "brand_kits"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_builds" ADD CONSTRAINT "template_builds_published_template_id_fkey" FOREIGN KEY ("published_template_id") REFERENCES "templates"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "template_builds" ADD CONSTRAINT "template_builds_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_messages" ADD CONSTRAINT "template_messages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_messages" ADD CONSTRAINT "template_messages_build_id_fkey" FOREIGN KEY ("build_id") REFERENCES "template_builds"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_message_idempotency" ADD CONSTRAINT "template_message_idempotency_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
