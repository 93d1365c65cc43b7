// The client against the real service: renders, waits, downloads and typed errors.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, newAccount, uuidPattern } from '../../../e2e/support/api.ts';
import { createRenderingClient, type FetchLike, type RenderingClient, RenderingApiError, RenderWaitError } from '../src/index.ts';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let rendering: RenderingClient;
/** Status of every answer the client received, with the request's method. */
const answers: string[] = [];

beforeAll(async () => {
  const account = await newAccount();
  const recording: FetchLike = async (request) => {
    const response = await fetch(request);
    answers.push(`${request.method} ${response.status}`);
    return response;
  };
  rendering = createRenderingClient({ apiKey: account.apiKey, baseUrl: baseUrl(), fetch: recording });
});

async function apiErrorOf(promise: Promise<unknown>): Promise<RenderingApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RenderingApiError);
  return error as RenderingApiError;
}

describe('render and wait', () => {
  it('renders a PDF and downloads it to memory and to a file', async () => {
    const job = await rendering.renderPdf({ html: '<h1>Invoice 42</h1>', reference: 'sdk-pdf' });
    expect(job).toMatchObject({ status: 'succeeded', credit: 'settled', reference: 'sdk-pdf' });
    expect(job.artifact?.media_type).toBe('application/pdf');

    const bytes = await rendering.download(job);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBe(job.artifact?.byte_size);

    const path = join(await mkdtemp(join(tmpdir(), 'svc-sdk-')), 'invoice.pdf');
    await rendering.downloadToFile(job, path);
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it('renders a PNG image and downloads it', async () => {
    const job = await rendering.renderImage({ html: '<body style="background:#0a7">card</body>', image: { format: 'png', width: 400, height: 300 } });
    expect(job).toMatchObject({ status: 'succeeded', credit: 'settled' });
    expect(job.id).toMatch(/^image_[0-9a-f]{32}$/);
    const bytes = await rendering.download(job);
    expect([...bytes.subarray(0, 8)]).toEqual(pngSignature);
    expect(bytes.readUInt32BE(16)).toBe(400);
    expect(bytes.readUInt32BE(20)).toBe(300);
  });

  it('polls a job the service answered with 202 until it is finished', async () => {
    answers.length = 0;
    const job = await rendering.renderPdf({ html: '<p>queued first</p>', wait: false }, { pollIntervalMs: 100 });
    expect(job.status).toBe('succeeded');
    expect(answers[0]).toBe('POST 202');
    expect(answers.slice(1).every((answer) => answer === 'GET 200')).toBe(true);
    expect(answers.length).toBeGreaterThan(1);
  });

  it('waits for a job created through the typed client, by job or by id', async () => {
    const created = await rendering.api.POST('/v1/image', { body: { html: '<p>later</p>', image: { format: 'webp' }, wait: false } });
    expect(created.response.status).toBe(202);
    const queued = created.data!;
    expect(['queued', 'running']).toContain(queued.status);
    const finished = await rendering.waitForJob(queued);
    expect(finished).toMatchObject({ id: queued.id, status: 'succeeded' });
    expect(finished.artifact?.media_type).toBe('image/webp');
    const byId = await rendering.waitForJob(queued.id);
    expect(byId.id).toBe(queued.id);
    expect(byId.download?.url).toContain('/v1/downloads/');
    expect((await rendering.download(byId)).subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('ends a wait at its timeout or abort with RenderWaitError holding the job, and resumes from it', async () => {
    const created = await rendering.api.POST('/v1/pdf', { body: { html: '<p>resumed</p>', wait: false } });
    const queued = created.data!;
    const timedOut = await rendering.waitForJob(queued, { timeoutMs: 1 }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(RenderWaitError);
    expect((timedOut as RenderWaitError).job.id).toBe(queued.id);
    expect((timedOut as RenderWaitError).cause).toMatchObject({ name: 'TimeoutError' });

    const controller = new AbortController();
    controller.abort();
    const aborted = await rendering.waitForJob(queued, { signal: controller.signal }).catch((error: unknown) => error);
    expect(aborted).toBeInstanceOf(RenderWaitError);

    expect((await rendering.waitForJob((timedOut as RenderWaitError).job)).status).toBe('succeeded');
  });
});

describe('typed errors', () => {
  it('throws RenderingApiError with the envelope of a 400, details included', async () => {
    const error = await apiErrorOf(rendering.renderPdf({ html: '<p>x</p>', pdf: { scale: 5 } }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.request_id).toMatch(uuidPattern);
    expect(error.details).toContainEqual({ field: 'pdf.scale', reason: 'invalid value' });
  });

  it('throws 401 unauthorized for a key the service does not know', async () => {
    const stranger = createRenderingClient({ apiKey: `svc_sk_v1_${'0'.repeat(64)}`, baseUrl: baseUrl() });
    const error = await apiErrorOf(stranger.renderImage({ html: '<p>x</p>', image: { format: 'png' } }));
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(error.request_id).toMatch(uuidPattern);
  });

  it('throws for a job id that is not the caller’s, and for a download link that is not genuine', async () => {
    const missing = await apiErrorOf(rendering.getJob(`pdf_${'f'.repeat(32)}`));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });

    const job = await rendering.renderPdf({ html: '<p>link</p>' });
    const forged = { ...job, download: { ...job.download!, url: `${job.download!.url}x` } };
    const refused = await apiErrorOf(rendering.download(forged));
    expect(refused.status).toBe(404);
    expect(refused.code).toBe('not_found');
  });
});
