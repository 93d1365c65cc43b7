-- Webhook destinations, deliveries (one per event and destination, or per test) and the attempt log.

CREATE TYPE "WebhookStatus" AS ENUM ('enabled', 'disabled');
CREATE TYPE "WebhookDisabledReason" AS ENUM ('owner_request', 'delivery_failure');
CREATE TYPE "WebhookDeliveryState" AS ENUM ('scheduled', 'sending', 'delivered', 'failed');

CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "status" "WebhookStatus" NOT NULL DEFAULT 'enabled',
    "disabled_reason" "WebhookDisabledReason",
    "secret" TEXT NOT NULL,
    "display_prefix" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "failure_count" INTEGER NOT NULL DEFAULT 0,
    "last_delivery_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhooks_failure_count_check" CHECK ("failure_count" >= 0)
);
CREATE INDEX "webhooks_account_id_created_at_id_idx" ON "webhooks"("account_id", "created_at" DESC, "id" DESC);

CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "is_test" BOOLEAN NOT NULL DEFAULT false,
    "body" TEXT NOT NULL,
    "state" "WebhookDeliveryState" NOT NULL DEFAULT 'scheduled',
    "round" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_attempts_check" CHECK ("attempts" >= 0 AND "attempts" <= 8)
);
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_event_id_key" ON "webhook_deliveries"("webhook_id", "event_id");
CREATE INDEX "webhook_deliveries_webhook_id_is_test_state_idx" ON "webhook_deliveries"("webhook_id", "is_test", "state");
CREATE INDEX "webhook_deliveries_state_lease_expires_at_idx" ON "webhook_deliveries"("state", "lease_expires_at");

CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "is_test" BOOLEAN NOT NULL,
    "round" INTEGER NOT NULL,
    "retry_count" INTEGER NOT NULL,
    "status_code" INTEGER,
    "failure" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_attempts_retry_count_check" CHECK ("retry_count" >= 0 AND "retry_count" <= 7)
);
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_round_retry_count_key" ON "webhook_attempts"("delivery_id", "round", "retry_count");
CREATE INDEX "webhook_attempts_webhook_id_created_at_id_idx" ON "webhook_attempts"("webhook_id", "created_at" DESC, "id" DESC);
CREATE INDEX "webhook_attempts_created_at_idx" ON "webhook_attempts"("created_at");

ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
