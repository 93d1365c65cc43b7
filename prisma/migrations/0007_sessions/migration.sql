-- Browser sessions, one-use sign-in and email links, and the account's email identity.

ALTER TABLE "accounts" ADD COLUMN "email" TEXT;
ALTER TABLE "accounts" ADD COLUMN "email_verified_at" TIMESTAMPTZ(3);
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

CREATE TYPE "SessionEndReason" AS ENUM ('sign_out', 'suspended');
CREATE TYPE "AuthLinkPurpose" AS ENUM ('sign_in', 'verify_email');

CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "verifier" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "end_reason" "SessionEndReason",
    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sessions_verifier_key" ON "sessions"("verifier");
CREATE INDEX "sessions_account_id_idx" ON "sessions"("account_id");

CREATE TABLE "auth_links" (
    "verifier" TEXT NOT NULL,
    "purpose" "AuthLinkPurpose" NOT NULL,
    "account_id" TEXT,
    "email" TEXT,
    "session_id" TEXT,
    "next" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "auth_links_pkey" PRIMARY KEY ("verifier"),
    -- a link names the account it signs into, or the address whose first use opens one
    CONSTRAINT "auth_links_target_check" CHECK ("account_id" IS NOT NULL OR "email" IS NOT NULL)
);
CREATE INDEX "auth_links_account_id_idx" ON "auth_links"("account_id");
CREATE INDEX "auth_links_session_id_idx" ON "auth_links"("session_id");

ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "auth_links" ADD CONSTRAINT "auth_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "auth_links" ADD CONSTRAINT "auth_links_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
