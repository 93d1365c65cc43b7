-- The SHA-256 of a template render's data in canonical JSON (keys sorted), recorded at
-- admission: a job's input and a group member keep only the evaluated html, and the rendered
-- file states the hash in its metadata (docs/decisions/renders.md, Provenance). Null for raw
-- HTML renders.
ALTER TABLE "render_jobs" ADD COLUMN "data_sha256" TEXT;
ALTER TABLE "render_group_members" ADD COLUMN "data_sha256" TEXT;
