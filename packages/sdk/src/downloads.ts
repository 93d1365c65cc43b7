// Downloads of finished files through the job's signed link (download.url, GET /v1/downloads/{token}).
// The link carries its own credential, so the API key is never sent with it.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { apiErrorOfResponse } from './errors.ts';
import type { FetchLike } from './retries.ts';
import type { RenderJob } from './types.ts';

export interface DownloadOptions {
  signal?: AbortSignal;
}

async function fetchFile(transport: FetchLike, job: RenderJob, options: DownloadOptions): Promise<Response> {
  if (!job.download) {
    const why = job.status === 'succeeded' ? `its file was removed (${job.artifact?.removed_reason ?? 'unavailable'})` : `it is ${job.status}`;
    throw new Error(`${job.id} has no file to download: ${why}`);
  }
  const response = await transport(new Request(job.download.url, { signal: options.signal }));
  if (!response.ok) throw await apiErrorOfResponse(response);
  return response;
}

/** The finished file's bytes. */
export async function downloadBytes(transport: FetchLike, job: RenderJob, options: DownloadOptions = {}): Promise<Buffer> {
  const response = await fetchFile(transport, job, options);
  return Buffer.from(await response.arrayBuffer());
}

/** Streams the finished file to `path` without holding it in memory. */
export async function downloadFile(transport: FetchLike, job: RenderJob, path: string, options: DownloadOptions = {}): Promise<void> {
  const response = await fetchFile(transport, job, options);
  if (!response.body) throw new Error(`${job.id}: the download answered without a body`);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(path), { signal: options.signal });
}
