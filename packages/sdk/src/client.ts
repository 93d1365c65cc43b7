// The client: the typed openapi-fetch client of the whole /v1 API, plus helpers for the common
// path of rendering a file, waiting for it and downloading it.
import createClient from 'openapi-fetch';
import { downloadBytes, downloadFile, type DownloadOptions } from './downloads.ts';
import type { paths } from './generated/openapi.ts';
import { idempotencyKeyMiddleware } from './idempotency.ts';
import {
  type ApiClient,
  createImage,
  createPdf,
  type JobOf,
  readJob,
  type RenderOptions,
  type WaitOptions,
  waitSignal,
  waitUntilFinished,
} from './jobs.ts';
import { type FetchLike, type RetryOptions, withRetries } from './retries.ts';
import type { ImageJob, ImageRequest, PdfJob, PdfRequest, RenderJob } from './types.ts';

export interface RenderingClientOptions {
  /** An API key secret (svc_sk_v1_...). */
  apiKey: string;
  /** The service address without /v1, e.g. https://render.example.com. */
  baseUrl: string;
  /** Retries of reads and of create calls with an Idempotency-Key. */
  retries?: RetryOptions;
  /** The function that sends one HTTP request; globalThis.fetch by default. */
  fetch?: FetchLike;
}

export interface RenderingClient {
  /** The typed client of every /v1 operation (openapi-fetch): `api.GET('/v1/me')`. */
  api: ApiClient;
  /** Renders a PDF and resolves with the finished job (check `status`: failed and cancelled jobs resolve too). */
  renderPdf(body: PdfRequest, options?: RenderOptions): Promise<PdfJob>;
  /** Renders a PNG, JPEG or WebP image and resolves with the finished job. */
  renderImage(body: ImageRequest, options?: RenderOptions): Promise<ImageJob>;
  /** Reads a job by id (pdf_ or image_), with a fresh download link when its file is available. */
  getJob<Id extends string>(id: Id, options?: { signal?: AbortSignal }): Promise<JobOf<Id>>;
  /** Resolves once the job (or the job of this id) is succeeded, failed or cancelled. */
  waitForJob<Job extends RenderJob>(job: Job, options?: WaitOptions): Promise<Job>;
  waitForJob<Id extends string>(id: Id, options?: WaitOptions): Promise<JobOf<Id>>;
  /** The bytes of a succeeded job's file. */
  download(job: RenderJob, options?: DownloadOptions): Promise<Buffer>;
  /** Writes a succeeded job's file to `path`. */
  downloadToFile(job: RenderJob, path: string, options?: DownloadOptions): Promise<void>;
}

export function createRenderingClient(options: RenderingClientOptions): RenderingClient {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const transport = withRetries(send, options.retries);
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: transport,
  });
  api.use(idempotencyKeyMiddleware);

  const waitForJob = async (jobOrId: RenderJob | string, waitOptions: WaitOptions = {}) => {
    const signal = waitSignal(waitOptions);
    const job = typeof jobOrId === 'string' ? await readJob(api, jobOrId, signal) : jobOrId;
    return waitUntilFinished(api, job, waitOptions, signal);
  };

  return {
    api,
    async renderPdf(body, renderOptions = {}) {
      const signal = waitSignal(renderOptions);
      return waitUntilFinished(api, await createPdf(api, body, renderOptions, signal), renderOptions, signal);
    },
    async renderImage(body, renderOptions = {}) {
      const signal = waitSignal(renderOptions);
      return waitUntilFinished(api, await createImage(api, body, renderOptions, signal), renderOptions, signal);
    },
    getJob: (id, readOptions = {}) => readJob(api, id, readOptions.signal),
    waitForJob: waitForJob as RenderingClient['waitForJob'],
    download: (job, downloadOptions) => downloadBytes(transport, job, downloadOptions),
    downloadToFile: (job, path, downloadOptions) => downloadFile(transport, job, path, downloadOptions),
  };
}
