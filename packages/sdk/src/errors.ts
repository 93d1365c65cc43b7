import type { ErrorCode, ErrorEnvelope, FieldDetail, RenderJob } from './types.ts';

type EnvelopeError = ErrorEnvelope['error'];

/**
 * A non-2xx answer of the API, with the fields of its error envelope (the contract's error rules).
 * `code` is null only when the answer carried no envelope, as when a proxy in front of the
 * service answered instead of the service itself.
 */
export class RenderingApiError extends Error {
  override readonly name = 'RenderingApiError';
  readonly status: number;
  readonly code: ErrorCode | null;
  /** The request id of the answer (error.request_id, else the x-request-id header); quote it to support. */
  readonly request_id: string | null;
  readonly details: readonly FieldDetail[];
  readonly retry: EnvelopeError['retry'];
  readonly plan_limit: EnvelopeError['plan_limit'];

  constructor(status: number, error: Partial<EnvelopeError>, requestIdHeader: string | null = null) {
    super(error.message ?? `The service answered HTTP ${status}`);
    this.status = status;
    this.code = error.code ?? null;
    this.request_id = error.request_id ?? requestIdHeader;
    this.details = error.details ?? [];
    this.retry = error.retry;
    this.plan_limit = error.plan_limit;
  }
}

/** Builds the error for a non-2xx answer from its parsed body (openapi-fetch's `error`) or its text. */
export function apiErrorFrom(response: Response, body: unknown): RenderingApiError {
  const error = isEnvelope(body) ? body.error : {};
  return new RenderingApiError(response.status, error, response.headers.get('x-request-id'));
}

/** Reads a non-2xx answer that was not parsed yet (downloads) into the error. */
export async function apiErrorOfResponse(response: Response): Promise<RenderingApiError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not an envelope: the status alone describes the answer
  }
  return apiErrorFrom(response, body);
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** The wait for a job ended (timeout or abort) before the job did; `job` is its last known state. */
export class RenderWaitError extends Error {
  override readonly name = 'RenderWaitError';
  constructor(
    readonly job: RenderJob,
    cause: unknown,
  ) {
    super(`Stopped waiting for ${job.id} while it was ${job.status}`, { cause });
  }
}
