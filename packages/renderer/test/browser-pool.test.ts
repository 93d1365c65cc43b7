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

/**
 * A renderer that used this much CPU (clock ticks: 0.2 s) while a job ran was spinning: an idle
 * or newly opened sandbox's renderer uses a few ticks at most.
 */
const SPINNING_TICKS = 20;

/** Renderer processes of the browser, with the CPU each has used so far. */
function rendererTicks(browserPid: number, userDataDir: string): Map<number, number> {
  const renderers = browserProcesses(browserPid, userDataDir, (cmdline) => cmdline.includes('--type=renderer'));
  return new Map(renderers.map((pid) => [pid, cpuTicks(pid)]));
}

/** CPU the browser's renderers used between two readings, those that started meanwhile included. */
function ticksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, ticks] of after) used += ticks - (before.get(pid) ?? 0);
  return used;
}

/** The most CPU one renderer of the browser used since a reading: a page's script running shows here. */
function busiestRendererSince(browserPid: number, userDataDir: string, before: Map<number, number>): number {
  let most = 0;
  for (const [pid, ticks] of rendererTicks(browserPid, userDataDir)) most = Math.max(most, ticks - (before.get(pid) ?? 0));
  return most;
}

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Chromium's browser process: the executable itself (not its launcher) and no --type= of a child. */
function isChromiumMain(cmdline: string): boolean {
  const [program = ''] = cmdline.split('\0');
  return /(^|\/)chrom(e|ium)(-headless-shell)?$/.test(program) && !cmdline.includes('--type=');
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

  test('an infinite loop times out as category timeout; the renderer that ran it is ended and no renderer spins on', async () => {
    const { browserPid, userDataDir } = renderer.status();
    // every renderer's CPU is followed through the job: the one that runs the loop is the one
    // that keeps a core busy, whenever the job gets to start on a busy machine
    const before = rendererTicks(browserPid!, userDataDir!);
    const usedInJob = new Map<number, number>();
    const follow = setInterval(() => {
      for (const [pid, ticks] of rendererTicks(browserPid!, userDataDir!)) usedInJob.set(pid, Math.max(usedInJob.get(pid) ?? 0, ticks - (before.get(pid) ?? 0)));
    }, 50);
    const started = Date.now();
    const error = await renderer
      .renderPdf(simple('<script>for (;;) {}</script>', { javascript: 'enabled', timeoutMs: 6_000 }))
      .catch((caught: unknown) => caught)
      .finally(() => clearInterval(follow));
    expect(error).toBeInstanceOf(RenderError);
    expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['timeout', 'render_timeout']);
    expect(Date.now() - started).toBeLessThan(30_000);
    // the loop's renderer is the one that used the most (a spare sandbox opened meanwhile uses some too)
    const [spinner, spun] = [...usedInJob].reduce((most, entry) => (entry[1] > most[1] ? entry : most), [0, 0]);
    expect(spun).toBeGreaterThanOrEqual(SPINNING_TICKS);
    // the job's renderer is ended with the job, not left to finish its loop
    await expect.poll(() => isAlive(spinner), { timeout: 30_000 }).toBe(false);
    // and no renderer of the browser keeps a core busy afterwards
    const after = rendererTicks(browserPid!, userDataDir!);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(ticksBetween(after, rendererTicks(browserPid!, userDataDir!))).toBeLessThan(30);
    expect((await renderer.renderPdf(simple())).pageCount).toBe(1);
    // the loop cost its own renderer, not the browser the other jobs share
    expect(renderer.status().browserPid).toBe(browserPid);
  });

  test('a page that exhausts memory crashes only its renderer: resource_limit, when it happens', async () => {
    // filling a gigabyte of heap takes seconds, and on a busy machine many more: the job's time
    // is long enough that only the crash, never the timeout, can end it
    const error = await renderer
      .renderPdf(simple('<script>const hoard = []; for (;;) hoard.push(new Array(1e7).fill(1.5))</script>', { javascript: 'enabled', timeoutMs: 150_000 }))
      .catch((caught: unknown) => caught);
    expect([(error as RenderError).category, (error as RenderError).code]).toEqual(['resource_limit', 'page_crashed']);
    expect((await renderer.renderPdf(simple())).pageCount).toBe(1);
  }, 240_000);

  test('a render after SIGKILL of the browser succeeds on a new browser; nothing of the old one remains', async () => {
    await eventually(() => renderer.status().browserPid !== null, 30_000);
    const before = renderer.status();
    // every process of the browser: its sandbox launcher, Chromium and Chromium's children
    process.kill(-before.browserPid!, 'SIGKILL');
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

  test('a render right after the sandbox launcher alone is killed succeeds: a browser that dies before the content loads costs the job nothing', async () => {
    // Chromium outlives its launcher by a moment, long enough to answer the check a spare gets
    // before it is handed out; the job then loses its browser before its content loads and runs
    // again on the next one
    for (let round = 0; round < 3; round += 1) {
      await eventually(() => renderer.status().browserPid !== null, 30_000);
      const before = renderer.status();
      process.kill(before.browserPid!, 'SIGKILL');
      const output = await renderer.renderPdf(simple(`<p>round ${round}</p>`));
      expect(output.pageCount).toBe(1);
      // on a quiet machine the render may finish on the old Chromium before it follows its
      // launcher; either way the pool replaces that browser
      await eventually(() => ![null, before.browserPid].includes(renderer.status().browserPid), 30_000);
    }
  });

  test('a render whose sandbox launcher is killed while the page runs succeeds on a new browser', async () => {
    await eventually(() => renderer.status().browserPid !== null, 30_000);
    const { browserPid, userDataDir } = renderer.status();
    const before = rendererTicks(browserPid!, userDataDir!);
    const busy = '<script>const end = Date.now() + 4000; while (Date.now() < end) {}</script><p>finished</p>';
    const pending = renderer.renderPdf(simple(busy, { javascript: 'enabled', timeoutMs: 60_000 }));
    // killed once the page's script has run for half a second of CPU (more than a new sandbox's
    // renderer uses to open): the content is loading, yet the launcher is beyond its reach
    await eventually(() => busiestRendererSince(browserPid!, userDataDir!, before) >= 2 * SPINNING_TICKS, 30_000);
    process.kill(browserPid!, 'SIGKILL');
    expect((await pending).pageCount).toBe(1);
    expect(renderer.status().browserPid).not.toBe(browserPid);
  });

  test('a browser that crashes during a render fails that render as renderer_failure, and the pool recovers', async () => {
    await eventually(() => renderer.status().browserPid !== null, 30_000);
    const { browserPid, userDataDir } = renderer.status();
    const before = rendererTicks(browserPid!, userDataDir!);
    const pending = renderer.renderPdf(simple('<script>for (;;) {}</script>', { javascript: 'enabled', timeoutMs: 60_000 })).catch((caught: unknown) => caught);
    // Chromium's own process killed once the page's script runs, its launcher untouched: a crash
    await eventually(() => busiestRendererSince(browserPid!, userDataDir!, before) >= 2 * SPINNING_TICKS, 30_000);
    const [chromium] = browserProcesses(browserPid!, userDataDir!, isChromiumMain);
    expect(chromium).toBeGreaterThan(0);
    process.kill(chromium!, 'SIGKILL');
    const error = await pending;
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
