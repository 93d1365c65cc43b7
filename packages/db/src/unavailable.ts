// Whether an error means the database could not be used at all (down, restarting, refusing
// connections), rather than that a statement failed: the first passes once the server is back.

/** Prisma's codes for a server it cannot reach, a closed connection, a timed-out pool. */
const unreachableCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Driver adapter error kinds of the same meaning. */
const unreachableKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Node socket error codes on the connection to the server. */
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** Any failed connect: over a Unix-domain socket a stopped server's socket file is gone (ENOENT). */
const connectCall = 'connect';
/** PostgreSQL classes 08 (connection exception) and 57P (operator intervention: shutdown, starting up). */
const serverStates = /^(08|57P)/;

interface ErrorLike {
  code?: unknown;
  syscall?: unknown;
  /** a driver adapter error's cause names its kind */
  kind?: unknown;
  errorCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const candidate = error as ErrorLike;
  const code = typeof candidate.code === 'string' ? candidate.code : typeof candidate.errorCode === 'string' ? candidate.errorCode : '';
  if (unreachableCodes.has(code) || socketCodes.has(code) || serverStates.test(code) || candidate.syscall === connectCall) return true;
  if (typeof candidate.kind === 'string' && unreachableKinds.has(candidate.kind)) return true;
  const adapterCause = candidate.meta?.driverAdapterError?.cause;
  if (typeof adapterCause?.kind === 'string' && unreachableKinds.has(adapterCause.kind)) return true;
  if (adapterCause?.kind === 'postgres' && typeof adapterCause.code === 'string' && serverStates.test(adapterCause.code)) return true;
  // node-postgres ends a client whose server went away with these messages and no code; Prisma
  // keeps only the message of a failed connect (a stopped server's socket file gone: ENOENT)
  if (typeof candidate.message === 'string' && /Connection terminated|not queryable|connect (ENOENT|ECONNREFUSED) /.test(candidate.message)) return true;
  return isDatabaseUnavailable(candidate.cause, depth + 1);
}

/** PostgreSQL's serialization_failure and deadlock_detected: the transaction was rolled back whole, and running it again may succeed. */
const conflictStates = new Set(['40001', '40P01']);

/**
 * Whether an error is PostgreSQL aborting a transaction to break a deadlock or a serialization
 * conflict with another one: nothing of it was kept, and the same request sent again may pass.
 */
export function isTransientConflict(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const candidate = error as ErrorLike;
  // node-postgres names the state; Prisma's driver adapter keeps it as the cause's original code
  const adapterCause = candidate.meta?.driverAdapterError?.cause as { kind?: unknown; originalCode?: unknown } | undefined;
  if (adapterCause?.kind === 'TransactionWriteConflict') return true;
  const codes = [candidate.code, adapterCause?.originalCode];
  if (codes.some((code) => typeof code === 'string' && conflictStates.has(code))) return true;
  return isTransientConflict(candidate.cause, depth + 1);
}
