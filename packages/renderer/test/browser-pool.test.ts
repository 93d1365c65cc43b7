// The browser pool under stress: runaway pages, the queue, planned restarts, a killed browser,
// and shutdown. Processes are counted from /proc: every Chromium process of a pool carries its
// profile directory on its command line or belongs to the browser's process group.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type RenderPdfInput } from '@svc/contracts';
import { PROFILE_PREFIX, sweepStaleProfiles } from '../src/browser/stale-profiles.ts';
import { Renderer } from '../src/index.ts';
import { browserProcesses, cpuTicks } from './support/processes.ts';

/** The process that used the most CPU over a short window. */
async function busiest(pids: number[]): Promise<number> {
  const before = new Map(pids.map((pid) => [pid, cpuTicks(pid)]));
  await new Promise((resolve) => setTimeout(resolve, 400));
  return pids.reduce((best, pid) => (cpuTicks(pid) - before.get(pid)! > cpuTicks(best) - before.get(best)! ? pid : best));
}

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const simple = (html = '<p>ok</p>', extra: Partial<RenderPdfInput> = {}): RenderPdfInput => ({
  html,
  pdf: {},
  viewport: { width: 800, height: 600, device_scale_factor: 1 },
  javascript: 'disabled',
  ...extra,
});

test('a browser that cannot start fails start() as renderer_failure', async () => {
  const error = await Renderer.start({ executablePath: '/nonexistent/chromium', launchTimeoutMs: 5_000 }).catch((caught: unknown) => caught);
  expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['renderer_failure', 'browser_launch_failed']);
});

test('profiles left by dead browsers are swept at start; live and just-created ones stay', async () => {
  const profile = () => mkdtempSync(join(tmpdir(), PROFILE_PREFIX));
  const deadOwner = profile();
  symlinkSync(`${hostname()}-2147483646`, join(deadOwner, 'SingletonLock'));
  const liveOwner = profile();
  symlinkSync(`${hostname()}-${process.pid}`, join(liveOwner, 'SingletonLock'));
  const abandoned = profile();
  const old = new Date(Date.now() - 60 * 60_000);
  utimesSync(abandoned, old, old);
  const starting = profile();
  try {
    await sweepStaleProfiles();
    expect([deadOwner, liveOwner, abandoned, starting].map((directory) => existsSync(directory))).toEqual([false, true, false, true]);
  } finally {
    for (const directory of [deadOwner, liveOwner, abandoned, starting]) rmSync(directory, { recursive: true, force: true });
  }
});

describe('runaway pages and a killed browser', () => {
  let renderer: Renderer;

  beforeAll(async () => {
    renderer = await Renderer.start({ concurrency: 2 });
  });

  afterAll(async () => {
    await renderer?.close();
  });

  test('an infinite loop times out as category timeout, and its spinning renderer is gone afterwards', async () => {
    const { browserPid, userDataDir } = renderer.status();
    const started = Date.now();
    const pending = renderer
      .renderPdf(simple('<script>for (;;) {}</script>', { javascript: 'enabled', timeoutMs: 2_500 }))
      .catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const spinner = await busiest(browserProcesses(browserPid!, userDataDir!));
    const error = await pending;
    expect(error).toBeInstanceOf(RenderError);
    expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['timeout', 'render_timeout']);
    expect(Date.now() - started).toBeLessThan(20_000);
    // closing the job's context ended the renderer process that was stuck in the loop
    await eventually(() => !isAlive(spinner));
    expect((await renderer.renderPdf(simple())).pageCount).toBe(1);
    expect(renderer.status().browserPid).toBe(browserPid);
  });

  test('a page that exhausts memory crashes only its renderer: resource_limit, quickly', async () => {
    const started = Date.now();
    const error = await renderer
      .renderPdf(simple('<script>const hoard = []; for (;;) hoard.push(new Array(1e7).fill(1.5))</script>', { javascript: 'enabled', timeoutMs: 30_000 }))
      .catch((caught: unknown) => caught);
    expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['resource_limit', 'page_crashed']);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await renderer.renderPdf(simple())).pageCount).toBe(1);
  });

  test('a render after SIGKILL of the browser succeeds on a new browser; nothing of the old one remains', async () => {
    const before = renderer.status();
    process.kill(before.browserPid!, 'SIGKILL');
    const output = await renderer.renderPdf(simple('<p>after the crash</p>'));
    expect(output.pageCount).toBe(1);
    const after = renderer.status();
    expect(after.browserPid).not.toBe(before.browserPid);
    expect(after.launches).toBe(before.launches + 1);
    // counted for the metrics: a crash, and a restart because of it
    expect(after.crashes).toBe(before.crashes + 1);
    expect(after.restarts.crash).toBe(before.restarts.crash + 1);
    await eventually(() => browserProcesses(before.browserPid!, before.userDataDir!).length === 0);
    await eventually(() => !existsSync(before.userDataDir!));
  });

  test('a browser killed during a render fails that render as renderer_failure, and the pool recovers', async () => {
    const { browserPid } = renderer.status();
    const pending = renderer.renderPdf(simple('<script>for (;;) {}</script>', { javascript: 'enabled', timeoutMs: 10_000 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(browserPid!, 'SIGKILL');
    const error = await pending.catch((caught: unknown) => caught);
    expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['renderer_failure', 'browser_crashed']);
    expect((await renderer.renderPdf(simple())).pageCount).toBe(1);
  });
});

describe('queue, planned restarts and shutdown', () => {
  let renderer: Renderer;

  beforeAll(async () => {
    renderer = await Renderer.start({ concurrency: 1, restartAfter: 3 });
  });

  afterAll(async () => {
    await renderer?.close();
  });

  test('the concurrency cap queues renders instead of running them together', async () => {
    // each render keeps its slot busy for about 300 ms
    const busy = simple('<script>const end = Date.now() + 300; while (Date.now() < end) {}</script><p>x</p>', { javascript: 'enabled' });
    let maxRunning = 0;
    let maxQueued = 0;
    const renders = Promise.all([renderer.renderPdf(busy), renderer.renderPdf(busy), renderer.renderPdf(busy)]);
    const watch = setInterval(() => {
      maxRunning = Math.max(maxRunning, renderer.status().running);
      maxQueued = Math.max(maxQueued, renderer.status().queued);
    }, 10);
    await renders.finally(() => clearInterval(watch));
    expect(maxRunning).toBe(1);
    expect(maxQueued).toBeGreaterThanOrEqual(1);
  });

  test('after restartAfter renders the browser is replaced, and the old one drains and exits', async () => {
    // the three renders above used up the first browser
    await eventually(() => renderer.status().launches === 2);
    const second = renderer.status();
    for (let index = 0; index < 3; index += 1) await renderer.renderPdf(simple());
    await eventually(() => renderer.status().launches === 3);
    expect(renderer.status().browserPid).not.toBe(second.browserPid);
    expect(renderer.status()).toMatchObject({ restarts: { recycle: 2, crash: 0, unresponsive: 0 }, crashes: 0, slots: 1 });
    await eventually(() => browserProcesses(second.browserPid!, second.userDataDir!).length === 0);
    // the profile goes right after the last process: removing it is the final step of the stop
    await eventually(() => !existsSync(second.userDataDir!));
  });

  test('close() refuses queued renders, finishes the running one, and leaves no Chromium process', async () => {
    const { browserPid, userDataDir } = renderer.status();
    expect(browserProcesses(browserPid!, userDataDir!).length).toBeGreaterThan(0);
    const running = renderer.renderPdf(simple('<script>const end = Date.now() + 300; while (Date.now() < end) {}</script>', { javascript: 'enabled' }));
    const queued = renderer.renderPdf(simple()).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await renderer.close();
    expect((await running).pageCount).toBe(1);
    expect([(await queued as RenderError).category, (await queued as RenderError).code]).toEqual(['internal_failure', 'renderer_closed']);
    expect(browserProcesses(browserPid!, userDataDir!)).toEqual([]);
    expect(existsSync(userDataDir!)).toBe(false);
    const late = await renderer.renderPdf(simple()).catch((caught: unknown) => caught);
    expect((late as RenderError).code).toBe('renderer_closed');
  });
});
