-- Brand assets (spec 2.6, 4.6): logos and fonts of a brand kit live in "assets" with the images,
-- so the one account quota counts them all. A kit's assets have a position (the order templates
-- read brand.logos and brand.fonts in); a replacement takes the position of the asset it
-- replaces, which stays stored (immutable, readable for renders that captured it) with
-- replaced_at and replaced_by set. Current assets are those with replaced_at null.

ALTER TABLE "assets" ADD COLUMN "position" INTEGER;
ALTER TABLE "assets" ADD COLUMN "font_family" TEXT;
ALTER TABLE "assets" ADD COLUMN "replaced_at" TIMESTAMPTZ(3);
ALTER TABLE "assets" ADD COLUMN "replaced_by" TEXT;

-- images belong to no kit; logos and fonts belong to one, at a position
ALTER TABLE "assets" ADD CONSTRAINT "assets_brand_kit_check"
    CHECK (("kind" = 'image') = ("brand_kit_id" IS NULL) AND ("brand_kit_id" IS NULL) = ("position" IS NULL));
ALTER TABLE "assets" ADD CONSTRAINT "assets_font_family_check" CHECK ("kind" = 'font' OR "font_family" IS NULL);

ALTER TABLE "assets" ADD CONSTRAINT "assets_brand_kit_id_fkey" FOREIGN KEY ("brand_kit_id") REFERENCES "brand_kits"("id") ON DELETE CASCADE ON UPDATE CASCADE;
