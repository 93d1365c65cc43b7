-- The mailbox an account's address delivers to (lower case, no +tag, Gmail without dots):
-- one free account per mailbox, so plus-addressed spellings of one address open no more.
ALTER TABLE "accounts" ADD COLUMN "email_mailbox" TEXT;

-- the same rule as mailboxOf (packages/core/src/auth/email-mailbox.ts); where accounts
-- already share a mailbox, the oldest holds it and the others keep their address without one
WITH parts AS (
  SELECT "id", "created_at",
         split_part(lower("email"), '@', 1) AS local,
         split_part(lower("email"), '@', 2) AS domain
    FROM "accounts" WHERE "email" IS NOT NULL
), untagged AS (
  SELECT "id", "created_at",
         CASE WHEN strpos(local, '+') > 1 THEN left(local, strpos(local, '+') - 1) ELSE local END AS local,
         domain
    FROM parts
), mailboxes AS (
  SELECT "id", "created_at",
         CASE WHEN domain IN ('gmail.com', 'googlemail.com')
              THEN COALESCE(NULLIF(replace(local, '.', ''), ''), local) || '@gmail.com'
              ELSE local || '@' || domain END AS mailbox
    FROM untagged
), ranked AS (
  SELECT "id", mailbox, row_number() OVER (PARTITION BY mailbox ORDER BY "created_at", "id") AS rank FROM mailboxes
)
UPDATE "accounts" a SET "email_mailbox" = ranked.mailbox FROM ranked WHERE a."id" = ranked."id" AND ranked.rank = 1;

CREATE UNIQUE INDEX "accounts_email_mailbox_key" ON "accounts"("email_mailbox");
