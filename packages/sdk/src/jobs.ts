// Creating, reading and waiting for render jobs (the contract's render jobs, their lifecycle and the PDF and image render routes). A create call answers
// 200 with a finished job or 202 with a queued or running one; a 202 job is read again with
// growing pauses until it reaches succeeded, failed or cancelled.
import type { Client } from 'openapi-fetch';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrorFrom, RenderWaitError } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import { idempotencyKeyHeader } from './idempotency.ts';
import type { ImageJob, ImageRequest, PdfJob, PdfRequest, RenderJob } from './types.ts';

export type ApiClient = Client<paths>;

export interface WaitOptions {
  /** Stops the wait, and the request in flight, when aborted. */
  signal?: AbortSignal;
  /** Gives up after this long, counted from the call. Default 5 minutes. */
  timeoutMs?: number;
  /** Pause before the first read; each later pause is 1.5 times longer. Default 500 ms. */
  pollIntervalMs?: number;
  /** Cap of the pause between reads. Default 5 s. */
  maxPollIntervalMs?: number;
}

export interface RenderOptions extends WaitOptions {
  /** Sent as Idempotency-Key; a fresh random key when omitted. Reuse it to replay the same job. */
  idempotencyKey?: string;
}

/** The job type a job id names, by its prefix. */
export type JobOf<Id extends string> = Id extends `pdf_${string}` ? PdfJob : Id extends `image_${string}` ? ImageJob : RenderJob;

const terminalStatuses: ReadonlySet<RenderJob['status']> = new Set(['succeeded', 'failed', 'cancelled']);

export function isFinished(job: RenderJob): boolean {
  return terminalStatuses.has(job.status);
}

/** The data of a 2xx answer, or the RenderingApiError of any other. */
export function dataOrThrow<Data>(result: { data?: Data; error?: unknown; response: Response }): Data {
  if (!result.response.ok) throw apiErrorFrom(result.response, result.error);
  return result.data as Data;
}

/** One signal for the whole call: the caller's, and the overall timeout. */
export function waitSignal(options: WaitOptions): AbortSignal {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 300_000);
  return options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
}

function idempotencyHeaders(options: RenderOptions): Record<string, string> {
  return options.idempotencyKey ? { [idempotencyKeyHeader]: options.idempotencyKey } : {};
}

export async function createPdf(api: ApiClient, body: PdfRequest, options: RenderOptions, signal: AbortSignal): Promise<PdfJob> {
  return dataOrThrow(await api.POST('/v1/pdf', { body, headers: idempotencyHeaders(options), signal }));
}

export async function createImage(api: ApiClient, body: ImageRequest, options: RenderOptions, signal: AbortSignal): Promise<ImageJob> {
  return dataOrThrow(await api.POST('/v1/image', { body, headers: idempotencyHeaders(options), signal }));
}

/** Reads a job by id; the prefix (pdf_ or image_) picks the route. */
export async function readJob<Id extends string>(api: ApiClient, id: Id, signal?: AbortSignal): Promise<JobOf<Id>> {
  const params = { path: { id } };
  if (id.startsWith('pdf_')) return dataOrThrow(await api.GET('/v1/pdf/{id}', { params, signal })) as JobOf<Id>;
  if (id.startsWith('image_')) return dataOrThrow(await api.GET('/v1/image/{id}', { params, signal })) as JobOf<Id>;
  throw new TypeError(`${id} is not a render job id (pdf_ or image_ followed by 32 hex characters)`);
}

/** Reads the job again, with growing pauses, until it is finished; a finished job returns at once. */
export async function waitUntilFinished<Job extends RenderJob>(api: ApiClient, first: Job, options: WaitOptions, signal: AbortSignal): Promise<Job> {
  let job = first;
  let pause = options.pollIntervalMs ?? 500;
  const maxPause = options.maxPollIntervalMs ?? 5_000;
  try {
    while (!isFinished(job)) {
      await sleep(pause, undefined, { signal });
      pause = Math.min(pause * 1.5, maxPause);
      job = (await readJob(api, job.id, signal)) as Job;
    }
    return job;
  } catch (error) {
    if (signal.aborted) throw new RenderWaitError(job, signal.reason);
    throw error;
  }
}
