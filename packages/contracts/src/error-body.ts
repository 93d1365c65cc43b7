import type { ErrorEnvelope, FieldDetail } from './envelope.ts';
import { type ErrorCode, errorDefinition } from './errors.ts';

export interface ErrorBodyExtras {
  details?: FieldDetail[];
  retryAfterSeconds?: number;
  planLimit?: { plan: 'scale' | 'growth' | 'starter' | 'pack' | 'free'; limit: number };
  /** In place of the table's message: the same words naming what is wrong (missingDataMessage). */
  clientMessage?: string;
}

/** The error envelope for a code: its status and message come from the one table. */
export function errorBody(code: ErrorCode, requestId: string, extras: ErrorBodyExtras = {}): { status: number; body: ErrorEnvelope } {
  const { status, message: fixed } = errorDefinition(code);
  const message = extras.clientMessage ?? fixed;
  const retry = extras.retryAfterSeconds === undefined ? undefined : Math.min(60, Math.max(1, Math.ceil(extras.retryAfterSeconds)));
  return {
    status,
    body: {
      error: {
        code,
        message,
        request_id: requestId,
        ...(extras.details && extras.details.length > 0 ? { details: extras.details.slice(0, 16) } : {}),
        ...(retry !== undefined ? { retry: { retry_after_seconds: retry } } : {}),
        ...(extras.planLimit ? { plan_limit: extras.planLimit } : {}),
      },
    },
  };
}
