-- The dashboard's render history: a PDF's page count, recorded when it is rendered (shown
-- beside a PDF icon, so no page is rasterised to list a render).
ALTER TABLE "render_jobs" ADD COLUMN "page_count" INTEGER;
-- The dashboard's list of batches, carousels and image packs, newest first, keyset-paged.
CREATE INDEX "render_groups_account_id_created_at_id_idx" ON "render_groups"("account_id", "created_at" DESC, "id" DESC);
