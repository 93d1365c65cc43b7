-- Adapt requests in flight (spec 4.5): the web process has no browser, so it hands the source to
-- a worker through this row and the queue, and waits for the result. A row lives only while its
-- request waits: the web process deletes it when it answers (or gives up at the deadline), and a
-- worker removes rows left past their deadline by a web process that died. Nothing is kept.

CREATE TABLE "adapt_requests" (
    "id" TEXT NOT NULL,
    "account_id" TEXT,
    "source" TEXT NOT NULL,
    "sizes" JSONB NOT NULL,
    "result" JSONB,
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "adapt_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "adapt_requests_deadline_idx" ON "adapt_requests"("deadline");
