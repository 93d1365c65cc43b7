-- PDF open passwords are kept only until a job ends (finishRender erases them since this
-- version). Jobs that ended before lose theirs now, marked as finishRender marks them, and the
-- idempotency records of requests that carried one, which hold a plain hash of the request,
-- keep a fingerprint that matches nothing (a replay under that key answers
-- idempotency_conflict instead).
UPDATE "idempotency_records" r SET "fingerprint" = 'erased'
  FROM "render_jobs" j
 WHERE j."id" = r."job_id" AND j."options" #> '{pdf,password}' IS NOT NULL;

UPDATE "render_jobs"
   SET "options" = jsonb_set("options" #- '{pdf,password}', '{pdf_password_erased}', 'true'::jsonb)
 WHERE "status" IN ('succeeded', 'failed', 'cancelled') AND "options" #> '{pdf,password}' IS NOT NULL;
