-- Groups of renders (spec 2.9, 3.4, 4.9): batches, carousels and image packs. Each member is
-- a normal render job once admitted; until then it waits as pending with what it renders.

CREATE TYPE "GroupKind" AS ENUM ('batch', 'carousel', 'image_pack');
CREATE TYPE "GroupMemberState" AS ENUM ('pending', 'admitted', 'failed', 'cancelled');

CREATE TABLE "render_groups" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT,
    "kind" "GroupKind" NOT NULL,
    "template_id" TEXT NOT NULL,
    "template_version" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "render_groups_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "render_groups_account_id_kind_idempotency_key_key" ON "render_groups"("account_id", "kind", "idempotency_key");

CREATE TABLE "render_group_members" (
    "group_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "account_id" TEXT NOT NULL,
    "label" TEXT,
    "name" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "state" "GroupMemberState" NOT NULL DEFAULT 'pending',
    "job_id" TEXT,
    "error_code" TEXT,
    "html" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "asset_ids" TEXT[],
    CONSTRAINT "render_group_members_pkey" PRIMARY KEY ("group_id", "position")
);
CREATE UNIQUE INDEX "render_group_members_job_id_key" ON "render_group_members"("job_id");
CREATE INDEX "render_group_members_account_id_state_idx" ON "render_group_members"("account_id", "state");

ALTER TABLE "render_jobs" ADD COLUMN "group_id" TEXT;
CREATE INDEX "render_jobs_group_id_idx" ON "render_jobs"("group_id");

ALTER TABLE "render_groups" ADD CONSTRAINT "render_groups_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_groups" ADD CONSTRAINT "render_groups_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_group_members" ADD CONSTRAINT "render_group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "render_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_group_members" ADD CONSTRAINT "render_group_members_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "render_jobs"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "render_jobs" ADD CONSTRAINT "render_jobs_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "render_groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;
