import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed download link token: "<job id>.<expiry, unix seconds>.<signature>", where the
 * signature is an HMAC-SHA256 of the first two parts. Nothing else is needed to serve it.
 */
export function signDownloadToken(secret: string, jobId: string, expiresAt: Date): string {
  const body = `${jobId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${signature(secret, body)}`;
}

export type DownloadTokenCheck = { valid: false } | { valid: true; jobId: string; expiresAt: Date };

export function readDownloadToken(secret: string, token: string): DownloadTokenCheck {
  const match = /^((?:pdf|image)_[0-9a-f]{32})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { valid: false };
  const [, jobId, expiry, given] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(signature(secret, `${jobId}.${expiry}`));
  if (!timingSafeEqual(expected, Buffer.from(given))) return { valid: false };
  return { valid: true, jobId, expiresAt: new Date(Number(expiry) * 1000) };
}

function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}
