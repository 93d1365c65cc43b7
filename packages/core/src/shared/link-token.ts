import { createHmac, timingSafeEqual } from 'node:crypto';
import { archiveTokenPattern, renderIdPrefixes, signedLinkPattern } from '@svc/contracts';

/**
 * What a kind of signed link names, and how its token is told apart from other kinds'. A token is
 * "<id>.<expiry, unix seconds>.<signature>", the signature an HMAC-SHA256 of the kind's scope
 * followed by the first two parts; nothing else is needed to serve it.
 */
export interface LinkTokenKind {
  /** The whole token, capturing the id, the expiry and the signature. */
  pattern: RegExp;
  /** Signed ahead of the token's body, so a token of one kind can never pass as another's. */
  scope: string;
}

/** A download link: one job's file. The first kind, signed without a scope. */
export const downloadLinkTokens: LinkTokenKind = { pattern: signedLinkPattern(renderIdPrefixes.pdf, renderIdPrefixes.image), scope: '' };
/** An archive link: a render group's files as one ZIP. */
export const archiveLinkTokens: LinkTokenKind = { pattern: archiveTokenPattern, scope: 'archive.' };

export function signLinkToken(kind: LinkTokenKind, secret: string, id: string, expiresAt: Date): string {
  const body = `${id}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${signature(kind, secret, body)}`;
}

export type LinkTokenCheck = { valid: false } | { valid: true; id: string; expiresAt: Date };

export function readLinkToken(kind: LinkTokenKind, secret: string, token: string): LinkTokenCheck {
  const match = kind.pattern.exec(token);
  if (!match) return { valid: false };
  const [, id, expiry, given] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(signature(kind, secret, `${id}.${expiry}`));
  if (!timingSafeEqual(expected, Buffer.from(given))) return { valid: false };
  return { valid: true, id, expiresAt: new Date(Number(expiry) * 1000) };
}

function signature(kind: LinkTokenKind, secret: string, body: string): string {
  return createHmac('sha256', secret).update(`${kind.scope}${body}`).digest('base64url');
}
