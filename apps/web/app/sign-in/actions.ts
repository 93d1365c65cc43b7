'use server';
import { type ErrorCode, hasUnsafeText } from '@svc/contracts';
import { DomainError, requestEmailSignIn } from '@svc/core';
import { cookies, headers } from 'next/headers';
import { z } from 'zod';
import { clientAddressHeader } from '../../src/http/client-address.ts';
import { serviceContext } from '../../src/http/context.ts';
import { customerMessage } from '../../src/dashboard/error-text.ts';
import { returnPathCookie, safeReturnPath } from '../../src/dashboard/paths.ts';

export type SignInRequestResult = { ok: true; email: string } | { ok: false; code: ErrorCode; message: string };

// an address holding U+0000 or a lone surrogate is no address: refused like any other bad one
const SignInRequest = z.object({
  email: z
    .string()
    .refine((email) => !hasUnsafeText(email))
    .pipe(z.string().trim().min(3).max(320)),
  next: z.string().max(2048).optional(),
});

/**
 * Mails a sign-in link (the answer is the same for every address). There is no session yet,
 * so no session CSRF token: Next's origin check on server actions stops cross-site posts.
 */
export async function requestSignIn(_previous: SignInRequestResult | null, form: FormData): Promise<SignInRequestResult> {
  const ctx = serviceContext();
  const parsed = SignInRequest.safeParse({ email: form.get('email'), next: form.get('next') ?? undefined });
  if (!parsed.success) return failed('invalid_email');
  try {
    const clientAddress = (await headers()).get(clientAddressHeader) ?? 'unknown';
    await requestEmailSignIn(ctx, { email: parsed.data.email, clientAddress });
  } catch (error) {
    if (error instanceof DomainError) return failed(error.code);
    ctx.logger.error('sign-in request failed', { error: error instanceof Error ? error.stack : String(error) });
    return failed('internal_error');
  }
  // the link opened in this browser brings it back to the page it asked for
  (await cookies()).set(returnPathCookie, safeReturnPath(parsed.data.next), { path: '/', maxAge: 15 * 60, httpOnly: true, secure: true, sameSite: 'lax' });
  return { ok: true, email: parsed.data.email };
}

function failed(code: ErrorCode): SignInRequestResult {
  return { ok: false, code, message: customerMessage(code) };
}
