import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { signingSecret } from '../settings/signing-secret.ts';
import type { ServiceContext } from '../shared/context.ts';

/**
 * The proof a sign-in POST carries that it comes from the link's own page in this browser:
 * an HMAC, under the service's signing secret, of the link's secret and a random value the
 * page left in a browser cookie. Another site can neither read the page nor set the cookie,
 * so it cannot forge the pair even for a link it holds itself.
 */
export interface SignInFormBinding {
  /** The random value kept in the browser's cookie. */
  browserValue: string;
  /** The form field that goes with it. */
  formToken: string;
}

const browserValuePattern = /^[A-Za-z0-9_-]{43}$/;

/** The form token of the link for the browser's value (`kept`, when it brought a well-formed one, else a fresh one). */
export async function newSignInFormBinding(ctx: ServiceContext, linkSecret: string, kept?: string | null): Promise<SignInFormBinding> {
  const browserValue = kept && browserValuePattern.test(kept) ? kept : randomBytes(32).toString('base64url');
  return { browserValue, formToken: await formToken(ctx, linkSecret, browserValue) };
}

/** True when `token` is the form token of this link and browser value. */
export async function checkSignInFormToken(ctx: ServiceContext, linkSecret: string, browserValue: string | null, token: string | null): Promise<boolean> {
  if (!browserValue || !token || !browserValuePattern.test(browserValue)) return false;
  const expected = Buffer.from(await formToken(ctx, linkSecret, browserValue));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function formToken(ctx: ServiceContext, linkSecret: string, browserValue: string): Promise<string> {
  return createHmac('sha256', await signingSecret(ctx)).update(`sign-in-form\0${linkSecret}\0${browserValue}`).digest('base64url');
}
