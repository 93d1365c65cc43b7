-- Heartbeats of the web and worker processes, one per minute each: public uptime and status.

CREATE TABLE "heartbeats" (
    "component" TEXT NOT NULL,
    "minute" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "heartbeats_pkey" PRIMARY KEY ("component", "minute")
);
CREATE INDEX "heartbeats_minute_idx" ON "heartbeats"("minute");
