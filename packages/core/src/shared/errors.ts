import type { ErrorCode, FieldDetail } from '@svc/contracts';

export interface DomainErrorOptions {
  details?: FieldDetail[];
  retryAfterSeconds?: number;
  planLimit?: { plan: 'scale' | 'growth' | 'starter' | 'pack' | 'free'; limit: number };
  /** The table's words naming what is wrong, in place of its fixed message (contracts' missingDataMessage). */
  clientMessage?: string;
}

/**
 * A failure the caller can act on. The HTTP adapter turns it into the error envelope
 * using the code's status and fixed message from the contracts table.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: FieldDetail[];
  readonly retryAfterSeconds?: number;
  readonly planLimit?: DomainErrorOptions['planLimit'];
  readonly clientMessage?: string;

  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(code);
    this.name = 'DomainError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.planLimit = options.planLimit;
    this.clientMessage = options.clientMessage;
  }
}

export const notFound = () => new DomainError('not_found');
