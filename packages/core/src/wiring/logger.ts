// The service's logs: one JSON object per line on stderr, with time, level, component and
// message, then the event's fields. The ids of the request or render job being worked on come
// from the log scope, so use-cases log through ctx.logger without knowing which request or job
// they serve. Secrets the service issues never appear whole, wherever they sit in a line.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { build as prettyStream, prettyFactory } from 'pino-pretty';
import { prettyLogs } from '../shared/config.ts';
import type { Logger } from '../shared/context.ts';

/** What the code running now works for; every line logged inside carries these ids. */
export interface LogScope {
  requestId?: string;
  jobId?: string;
}

const scope = new AsyncLocalStorage<LogScope>();

/**
 * Runs `work` with `ids` added to every line it logs, across its awaits. On Node 20 the first
 * scope turns on promise hooks for the whole process (about a thirtieth of the worker's CPU per
 * render), so the worker passes its job's id in the job's logger instead (withLogFields).
 */
export function withLogScope<T>(ids: LogScope, work: () => T): T {
  return scope.run({ ...scope.getStore(), ...ids }, work);
}

/** `logger` with `ids` added to every line it logs: a scope handed over explicitly, as part of a context. */
export function withLogFields(logger: Logger, ids: LogScope): Logger {
  return {
    info: (message, fields) => logger.info(message, { ...ids, ...fields }),
    warn: (message, fields) => logger.warn(message, { ...ids, ...fields }),
    error: (message, fields) => logger.error(message, { ...ids, ...fields }),
  };
}

// API keys, webhook signing secrets, session tokens, sign-in link tokens and operator tokens. The
// prefix stays, so a line still says which kind it was, with the first characters of the secret's
// SHA-256: the start of the verifier the database keeps for keys, sessions, links and operator
// tokens, so lines about one secret can be matched to each other and to its row.
const issuedSecret = /(svc_(?:sk_v1|whsec|ses|link|op_v1)_)[A-Za-z0-9_-]+/g;
// signed links (downloads, archives) are "<id>.<expiry>.<signature>": whoever holds one gets the
// file with no key, so only the signature goes; the id still says which file was asked for
const signedLinkToken = /([a-z]+_[0-9a-f]{32}\.\d{1,12}\.)[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
// fields whose value is a secret whatever it looks like
const secretField = /pass(word)?|secret|token|api_?key|authorization|cookie|signature/i;

// the password of a URL (a database or SMTP URL in a connection error)
const urlPassword = /(\/\/[^:/@\s]+:)[^@\s/]+@/g;

/**
 * A text with every secret the service issues cut to its prefix and a fingerprint, every signed
 * link without its signature, and URL passwords removed. Every line of the log passes here.
 */
export function redactSecrets(text: string): string {
  return redactPlain(text.includes('%') ? text.replace(percentEncodedRun, redactEncoded) : text);
}

function redactPlain(text: string): string {
  return text
    .replace(issuedSecret, (secret, prefix: string) => `${prefix}[redacted:${createHash('sha256').update(secret).digest('hex').slice(0, 8)}]`)
    .replace(signedLinkToken, '$1[redacted]')
    .replace(urlPassword, '$1[redacted]@');
}

// A run of URL characters holding at least one percent escape: a client may send a key or a link
// token with any of its characters escaped (%5F for "_", %2E for "."), which routers decode and
// accept, so the log line must not keep it whole either.
const percentEncodedRun = /(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*%[0-9A-Fa-f]{2}(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*/g;

/** An escaped run decoded (up to three times, for escapes of escapes) and redacted, when it hides a secret; else as it was. */
function redactEncoded(run: string): string {
  let decoded = run;
  for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}/.test(decoded); round += 1) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  const redacted = redactPlain(decoded);
  return redacted === decoded ? run : redacted;
}

function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value instanceof Error) return redactSecrets(value.message);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return redactFields(value as Record<string, unknown>, depth + 1);
}

export function redactFields(fields: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    clean[key] = secretField.test(key) && value !== undefined && value !== null ? '[redacted]' : redactValue(value, depth);
  }
  return clean;
}

const prettyOptions = { messageKey: 'message', ignore: 'component', messageFormat: '{component}: {message}', colorize: Boolean(process.stderr.isTTY) };

/** One JSON log line made readable, for SVC_LOG_FORMAT=pretty. */
export const prettyLogLine: (line: string) => string = prettyFactory(prettyOptions);

/** The Logger of one component (web, worker, start, ...), writing on stderr. */
export function createLogger(component: string): Logger {
  const lines = pino(
    {
      base: { component },
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: (fields) => redactFields(fields) },
      mixin: () => ({ ...scope.getStore() }),
    },
    // synchronous, so the lines written just before a process exits are not lost
    prettyLogs() ? prettyStream({ ...prettyOptions, destination: 2, sync: true }) : pino.destination({ fd: 2, sync: true }),
  );
  const write = (level: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => lines[level](fields ?? {}, redactSecrets(message));
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
