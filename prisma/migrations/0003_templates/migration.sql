-- Saved templates: templates, their immutable versions and archive history.

CREATE TYPE "TemplateInputMode" AS ENUM ('html', 'blank');

CREATE TABLE "templates" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT,
    "tags" TEXT[],
    "input_mode" "TemplateInputMode" NOT NULL,
    "latest_version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archived_at" TIMESTAMPTZ(3),
    CONSTRAINT "templates_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "templates_latest_version_check" CHECK ("latest_version" >= 1)
);
CREATE INDEX "templates_account_id_created_at_id_idx" ON "templates"("account_id", "created_at" DESC, "id" DESC);

CREATE TABLE "template_versions" (
    "template_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "schema" JSONB,
    "sizes" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "template_versions_pkey" PRIMARY KEY ("template_id", "version"),
    CONSTRAINT "template_versions_version_check" CHECK ("version" >= 1)
);

CREATE TABLE "template_archive_events" (
    "id" BIGSERIAL NOT NULL,
    "template_id" TEXT NOT NULL,
    "archived_at" TIMESTAMPTZ(3) NOT NULL,
    "restored_at" TIMESTAMPTZ(3),
    CONSTRAINT "template_archive_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "template_archive_events_template_id_archived_at_idx" ON "template_archive_events"("template_id", "archived_at");

ALTER TABLE "templates" ADD CONSTRAINT "templates_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "template_archive_events" ADD CONSTRAINT "template_archive_events_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_jobs" ADD CONSTRAINT "render_jobs_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE SET NULL ON UPDATE CASCADE;
