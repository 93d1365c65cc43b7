-- Accounts, API keys and the credit ledger.

CREATE TYPE "Plan" AS ENUM ('scale', 'growth', 'starter', 'pack', 'free');
CREATE TYPE "AccountStatus" AS ENUM ('active', 'suspended');
CREATE TYPE "ApiKeyStatus" AS ENUM ('active', 'revoked');
CREATE TYPE "CreditBucket" AS ENUM ('free_monthly', 'trial', 'pack', 'subscription');
CREATE TYPE "CreditSource" AS ENUM ('free_monthly', 'trial', 'pack', 'subscription', 'overage');
CREATE TYPE "ReservationState" AS ENUM ('reserved', 'settled', 'released');
CREATE TYPE "LedgerKind" AS ENUM ('grant', 'reset', 'reserve', 'settle', 'release');

CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "plan" "Plan" NOT NULL,
    "status" "AccountStatus" NOT NULL DEFAULT 'active',
    "monthly_free_credits" INTEGER NOT NULL DEFAULT 0,
    "is_demo" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "suspended_at" TIMESTAMPTZ(3),
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "accounts_monthly_free_credits_check" CHECK ("monthly_free_credits" >= 0)
);

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "verifier" TEXT NOT NULL,
    "display_prefix" TEXT NOT NULL,
    "status" "ApiKeyStatus" NOT NULL DEFAULT 'active',
    "monthly_overage_cap" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_monthly_overage_cap_check" CHECK ("monthly_overage_cap" IS NULL OR "monthly_overage_cap" >= 1)
);
CREATE UNIQUE INDEX "api_keys_verifier_key" ON "api_keys"("verifier");
CREATE INDEX "api_keys_account_id_created_at_id_idx" ON "api_keys"("account_id", "created_at" DESC, "id" DESC);

CREATE TABLE "credit_balances" (
    "account_id" TEXT NOT NULL,
    "bucket" "CreditBucket" NOT NULL,
    "balance" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "credit_balances_pkey" PRIMARY KEY ("account_id", "bucket"),
    -- the last line of defence: no interleaving of reservations can take a bucket below zero
    CONSTRAINT "credit_balances_balance_check" CHECK ("balance" >= 0)
);

CREATE TABLE "credit_reservations" (
    "job_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT,
    "source" "CreditSource" NOT NULL,
    "period" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "state" "ReservationState" NOT NULL DEFAULT 'reserved',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "credit_reservations_pkey" PRIMARY KEY ("job_id"),
    CONSTRAINT "credit_reservations_amount_check" CHECK ("amount" >= 1)
);
CREATE INDEX "credit_reservations_account_id_state_idx" ON "credit_reservations"("account_id", "state");

CREATE TABLE "credit_ledger" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "job_id" TEXT,
    "key_id" TEXT,
    "kind" "LedgerKind" NOT NULL,
    "source" "CreditSource" NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "credit_ledger_job_id_kind_key" ON "credit_ledger"("job_id", "kind");
CREATE INDEX "credit_ledger_account_id_created_at_idx" ON "credit_ledger"("account_id", "created_at");

CREATE TABLE "overage_usage" (
    "account_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "overage_usage_pkey" PRIMARY KEY ("key_id", "period"),
    CONSTRAINT "overage_usage_used_check" CHECK ("used" >= 0)
);
CREATE INDEX "overage_usage_account_id_period_idx" ON "overage_usage"("account_id", "period");

CREATE TABLE "credit_period_resets" (
    "account_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "credit_period_resets_pkey" PRIMARY KEY ("account_id", "period")
);

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_balances" ADD CONSTRAINT "credit_balances_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_reservations" ADD CONSTRAINT "credit_reservations_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "overage_usage" ADD CONSTRAINT "overage_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credit_period_resets" ADD CONSTRAINT "credit_period_resets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
