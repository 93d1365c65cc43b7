-- Testimonials kept for private review, and the CAPTCHA solutions already accepted.

CREATE TABLE "testimonials" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "company" TEXT NOT NULL,
    "quote" TEXT NOT NULL,
    "client_address" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "testimonials_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "testimonials_created_at_idx" ON "testimonials"("created_at");

CREATE TABLE "captcha_redemptions" (
    "key" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "captcha_redemptions_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "captcha_redemptions_expires_at_idx" ON "captcha_redemptions"("expires_at");
