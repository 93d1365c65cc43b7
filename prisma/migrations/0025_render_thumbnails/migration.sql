-- Where a succeeded PDF's first-page thumbnail is stored (beside its file, in the same
-- storage), set by the worker once it has made one; null until then, for images (their
-- thumbnail is scaled from the file itself) and for PDFs that cannot have one.
ALTER TABLE "render_jobs" ADD COLUMN "thumbnail_key" TEXT;
