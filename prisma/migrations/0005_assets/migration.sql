-- Account asset files: uploaded images now, brand-kit logos and fonts later, in one table so
-- one quota (100 files, 100 MiB per account) counts them all. Assets are immutable: a row and
-- its stored bytes never change, so a render captures an asset by id.

CREATE TYPE "AssetKind" AS ENUM ('image', 'logo', 'font');

CREATE TABLE "assets" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" "AssetKind" NOT NULL,
    "brand_kit_id" TEXT,
    "media_type" TEXT NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "sha256" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "assets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "assets_byte_size_check" CHECK ("byte_size" > 0)
);
CREATE INDEX "assets_account_id_created_at_idx" ON "assets"("account_id", "created_at");
CREATE INDEX "assets_brand_kit_id_idx" ON "assets"("brand_kit_id");
CREATE UNIQUE INDEX "assets_storage_key_key" ON "assets"("storage_key");

-- What an account's asset files add up to, kept with every write: one conditional upsert checks
-- and counts a new file atomically, so concurrent uploads never overshoot the quota.
CREATE TABLE "account_asset_usage" (
    "account_id" TEXT NOT NULL,
    "files" INTEGER NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "account_asset_usage_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "account_asset_usage_files_check" CHECK ("files" >= 0),
    CONSTRAINT "account_asset_usage_bytes_check" CHECK ("bytes" >= 0)
);

-- The assets a render job references, captured at admission; the worker serves only these.
CREATE TABLE "render_job_assets" (
    "job_id" TEXT NOT NULL,
    "asset_id" TEXT NOT NULL,
    CONSTRAINT "render_job_assets_pkey" PRIMARY KEY ("job_id", "asset_id")
);
CREATE INDEX "render_job_assets_asset_id_idx" ON "render_job_assets"("asset_id");

ALTER TABLE "assets" ADD CONSTRAINT "assets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "account_asset_usage" ADD CONSTRAINT "account_asset_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_job_assets" ADD CONSTRAINT "render_job_assets_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "render_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "render_job_assets" ADD CONSTRAINT "render_job_assets_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
