import { createHash, createHmac } from 'node:crypto';
import type { Challenge, Solution } from 'altcha-lib';
import type { DbOrTx } from '@svc/db';
import { signingSecret } from '../settings/signing-secret.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';

/** The library, loaded with the first challenge: a process that never issues one never holds it. */
async function altcha() {
  const [library, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/pbkdf2')]);
  return { ...library, deriveKey };
}

/** A challenge is good for ten minutes after it is issued. */
export const captchaLifetimeMs = 10 * 60_000;
/**
 * The work: PBKDF2-SHA-256 of this many iterations per attempt, and the answer among the first
 * few thousand counters (a second or two in a browser, nothing for the server to check).
 */
const captchaCost = 500;
const counterRange = [500, 2_500] as const;
const algorithm = 'PBKDF2/SHA-256';

/**
 * ALTCHA's HMAC keys, derived from the signing secret (SVC_SIGNING_SECRET or its generated twin)
 * with a label of their own, so they never equal the key that signs download links.
 */
async function captchaKeys(ctx: ServiceContext) {
  const secret = await signingSecret(ctx);
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest('hex');
  return { hmacSignatureSecret: derive('altcha-challenge-v1'), hmacKeySignatureSecret: derive('altcha-key-v1') };
}

/** A fresh proof-of-work challenge, signed and with its expiry inside. */
export async function createCaptchaChallenge(ctx: ServiceContext): Promise<Challenge> {
  const { createChallenge, deriveKey, randomInt } = await altcha();
  return createChallenge({
    algorithm,
    cost: captchaCost,
    counter: randomInt(counterRange[0], counterRange[1]),
    deriveKey,
    expiresAt: new Date(ctx.clock().getTime() + captchaLifetimeMs),
    ...(await captchaKeys(ctx)),
  });
}

/**
 * Checks a solved challenge (the widget's base64 JSON payload {challenge, solution}) and uses it
 * up: each challenge is accepted once (a unique row until it expires). Anything else, expired
 * included, answers 403 captcha_rejected. Given a transaction, the use counts only if it commits.
 */
export async function redeemCaptcha(ctx: ServiceContext, db: DbOrTx, token: string): Promise<void> {
  const payload = decode(token);
  if (!payload) throw new DomainError('captcha_rejected');
  const expiresAt = payload.challenge.parameters.expiresAt;
  if (typeof expiresAt !== 'number' || expiresAt * 1000 <= ctx.clock().getTime()) throw new DomainError('captcha_rejected');
  const { deriveKey, verifySolution } = await altcha();
  const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, ...(await captchaKeys(ctx)) }).catch(
    () => null,
  );
  if (!result?.verified) throw new DomainError('captcha_rejected');
  const key = createHash('sha256').update(payload.challenge.signature as string).digest('hex');
  const now = ctx.clock();
  await db.$executeRaw`DELETE FROM captcha_redemptions WHERE expires_at < ${now}`;
  const inserted = await db.$executeRaw`
    INSERT INTO captcha_redemptions (key, expires_at) VALUES (${key}, ${new Date(expiresAt * 1000)}) ON CONFLICT (key) DO NOTHING`;
  if (inserted === 0) throw new DomainError('captcha_rejected');
}

function decode(token: string): { challenge: Challenge; solution: Solution } | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
    const { challenge, solution } = parsed;
    if (!challenge?.parameters || typeof challenge.signature !== 'string' || !solution) return null;
    if (challenge.parameters.algorithm !== algorithm) return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}
