// What the renderer tells an operator through the logger it is given: the browser's launch,
// its restarts and crash, timeouts and sandbox trips, each with a code or category an operator
// can act on, and never anything of the customer's document.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type RenderPdfInput } from '@svc/contracts';
import { Renderer, type RendererLogger } from '../src/index.ts';

interface Line {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

const lines: Line[] = [];
const logger: RendererLogger = {
  info: (message, fields = {}) => lines.push({ level: 'info', message, fields }),
  warn: (message, fields = {}) => lines.push({ level: 'warn', message, fields }),
  error: (message, fields = {}) => lines.push({ level: 'error', message, fields }),
};
const logged = (message: string) => lines.filter((line) => line.message === message);

async function eventually(check: () => boolean, timeoutMs = 45_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pdf = (html: string, extra: Partial<RenderPdfInput> = {}): RenderPdfInput => ({
  html,
  pdf: {},
  viewport: { width: 800, height: 600, device_scale_factor: 1 },
  javascript: 'disabled',
  ...extra,
});

let renderer: Renderer;

beforeAll(async () => {
  // a new browser after every three renders, so the test sees a planned restart too
  renderer = await Renderer.start({ concurrency: 1, restartAfter: 3, logger });
});

afterAll(async () => {
  await renderer?.close();
});

describe('renderer logs', () => {
  test('the launch, with the browser pid and executable', () => {
    const [launch] = logged('browser launched');
    expect(launch?.fields).toMatchObject({ pid: renderer.status().browserPid, executable: expect.stringContaining('chromium') });
  });

  test('a timeout, with its code and the limit it hit', async () => {
    const spin = '<script>for (;;) {}</script>';
    const error = await renderer.renderPdf(pdf(spin, { javascript: 'enabled', timeoutMs: 1_000 })).catch((caught: unknown) => caught);
    expect((error as RenderError).code).toBe('render_timeout');
    expect(logged('render timed out')).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ code: 'render_timeout', timeoutMs: 1_000 }) })]);
  });

  test('a network guard trip by layer and kind, without the URL or the document, to the job\'s own logger', async () => {
    const secret = 'customer-secret-4711';
    const html = `<h1>${secret}</h1><img src="http://tracker.example/${secret}.png?email=someone@example.com">`;
    // the job's logger adds its id to each line, as the worker's does
    const job: RendererLogger = {
      info: (message, fields) => logger.info(message, { jobId: 'pdf_job', ...fields }),
      warn: (message, fields) => logger.warn(message, { jobId: 'pdf_job', ...fields }),
      error: (message, fields) => logger.error(message, { jobId: 'pdf_job', ...fields }),
    };
    const error = await renderer.renderPdf(pdf(html, { logger: job })).catch((caught: unknown) => caught);
    expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['unsafe_asset', 'blocked_request']);
    // the worker logs this message with the job id, so it must be free of content too
    expect((error as RenderError).message).not.toContain(secret);
    // interception and the network observer both see the request; whichever reports first trips
    expect(logged('network guard tripped')).toEqual([
      { level: 'warn', message: 'network guard tripped', fields: { jobId: 'pdf_job', code: 'blocked_request', layer: expect.stringMatching(/^(interception|observer)$/), kind: 'image' } },
    ]);
    const everything = JSON.stringify(lines);
    for (const content of [secret, 'tracker.example', 'someone@example.com']) expect(everything).not.toContain(content);
  });

  test('a planned restart after the configured number of renders', async () => {
    const before = renderer.status().browserPid;
    await renderer.renderPdf(pdf('<p>third render</p>'));
    // a new browser starts in seconds, on a busy machine in many more
    const recycled = (message: string) => logged(message).find((line) => line.fields.reason === 'recycle');
    await eventually(() => recycled('browser restarted') !== undefined, 120_000);
    expect(recycled('browser retired')?.fields).toMatchObject({ pid: before, reason: 'recycle', renders: 3 });
    expect(recycled('browser restarted')?.fields).toMatchObject({ reason: 'recycle', previousPid: before, pid: renderer.status().browserPid });
  }, 180_000);

  test('a crash, and the restart that follows it', async () => {
    await eventually(() => renderer.status().browserPid !== null);
    const crashed = renderer.status().browserPid!;
    process.kill(crashed, 'SIGKILL');
    await eventually(() => logged('browser restarted').some((line) => line.fields.reason === 'crash'));
    expect(logged('browser crashed')).toEqual([expect.objectContaining({ level: 'error', fields: expect.objectContaining({ pid: crashed }) })]);
    // the pool still renders
    const output = await renderer.renderPdf(pdf('<p>after the crash</p>'));
    expect(output.pageCount).toBe(1);
  });
});
