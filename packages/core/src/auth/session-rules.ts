// The lifetimes of browser sign-in (docs/decisions/accounts.md, Sessions). One place, so the CLI, the mailer
// and the session check cannot disagree.

/** A one-use sign-in or email link lasts fifteen minutes. */
export const authLinkLifetimeMs = 15 * 60_000;
/** A session unused this long has ended (each request moves it on). */
export const sessionIdleTimeoutMs = 24 * 3_600_000;
/** A session ends this long after sign-in, however active it is. */
export const sessionAbsoluteLifetimeMs = 7 * 24 * 3_600_000;
/** How stale last_seen_at may be: it is written at most once per this interval per session. */
export const sessionTouchResolutionMs = 60_000;

export const sessionIdPrefix = 'ses_';
/** The cookie secret: scheme and 64 hex characters (256 random bits), like an API key. */
export const sessionSecretPrefix = 'svc_ses_';
export const authLinkSecretPrefix = 'svc_link_';
export const sessionSecretPattern = /^svc_ses_[0-9a-f]{64}$/;
export const authLinkSecretPattern = /^svc_link_[0-9a-f]{64}$/;
