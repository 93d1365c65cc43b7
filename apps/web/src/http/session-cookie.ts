import { sessionCookieName } from '@svc/contracts';

/**
 * The Set-Cookie of a new session: HttpOnly, Secure, SameSite=Lax, Path=/ and no Domain (the
 * __Host- prefix makes browsers insist on the last three), kept until the absolute lifetime.
 */
export function sessionSetCookie(secret: string, expiresAt: Date): string {
  return `${sessionCookieName}=${secret}; Path=/; Expires=${expiresAt.toUTCString()}; HttpOnly; Secure; SameSite=Lax`;
}

/** Removes the session cookie from the browser. */
export function clearedSessionCookie(): string {
  return `${sessionCookieName}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;
}
