-- Brand kits (spec 2.6, 4.6): name, normalised colours, tone guidance, archive history.
-- Brand assets (logos and fonts) arrive in a later migration.

CREATE TABLE "brand_kits" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "colours" TEXT[],
    "tone_guidance" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archived_at" TIMESTAMPTZ(3),
    CONSTRAINT "brand_kits_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "brand_kits_account_id_created_at_id_idx" ON "brand_kits"("account_id", "created_at" DESC, "id" DESC);

CREATE TABLE "brand_kit_archive_events" (
    "id" BIGSERIAL NOT NULL,
    "brand_kit_id" TEXT NOT NULL,
    "archived_at" TIMESTAMPTZ(3) NOT NULL,
    "restored_at" TIMESTAMPTZ(3),
    CONSTRAINT "brand_kit_archive_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "brand_kit_archive_events_brand_kit_id_archived_at_idx" ON "brand_kit_archive_events"("brand_kit_id", "archived_at");

ALTER TABLE "brand_kits" ADD CONSTRAINT "brand_kits_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "brand_kit_archive_events" ADD CONSTRAINT "brand_kit_archive_events_brand_kit_id_fkey" FOREIGN KEY ("brand_kit_id") REFERENCES "brand_kits"("id") ON DELETE CASCADE ON UPDATE CASCADE;
