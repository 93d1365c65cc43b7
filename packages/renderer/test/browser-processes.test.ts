// What runs where in Chromium, seen from /proc while a render runs: every process below the
// browser is inside Chromium's own sandbox (its seccomp filter stacked on the service's, or
// namespaces of its own), and a page with script on finds no graphics stack to reach.
import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Renderer } from '../src/index.ts';
import { duringRender, processTree } from './support/processes.ts';

const viewport = { width: 800, height: 600, device_scale_factor: 1 };

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 1, warmSandboxes: 0 });
});

afterAll(async () => {
  await renderer?.close();
});

interface ChromiumProcess {
  pid: number;
  parent: number;
  /** --type= of a child process; 'none' for the browser process itself and what starts it */
  type: string;
  commandLine: string;
  /** seccomp filters stacked on the process: the browser's own (the service's) and any Chromium added */
  filters: number;
  userNamespace: string;
  pidNamespace: string;
}

/** A process of the browser as /proc shows it; null once it has ended. */
function chromiumProcess(pid: number): ChromiumProcess | null {
  try {
    // Chromium's children rewrite their command line into one space-separated string
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    const filters = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^Seccomp_filters:\s*(\d+)$/m);
    if (!filters) throw new Error('this kernel does not show Seccomp_filters in /proc/<pid>/status');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return {
      pid,
      // after the parenthesised command name: state, ppid, ...
      parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]),
      type: commandLine.match(/ --type=(\S+)/)?.[1] ?? 'none',
      commandLine,
      filters: Number(filters[1]),
      userNamespace: readlinkSync(`/proc/${pid}/ns/user`),
      pidNamespace: readlinkSync(`/proc/${pid}/ns/pid`),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') return null;
    throw error;
  }
}

/** The browser's process group as /proc shows it: the launch chain, the browser and its children. */
function processes(leader: number): ChromiumProcess[] {
  return processTree(leader).flatMap((pid) => chromiumProcess(pid) ?? []);
}

test('a page with script on gets no WebGL, WebGL 2 or WebGPU, on a canvas or off screen', async () => {
  const html = `<p id="out">not run</p><script>
    const context = (canvas, kind) => { try { return String(canvas.getContext(kind)); } catch (error) { return 'threw'; } };
    document.getElementById('out').textContent = [
      'webgl=' + context(document.createElement('canvas'), 'webgl'),
      'experimental=' + context(document.createElement('canvas'), 'experimental-webgl'),
      'webgl2=' + context(document.createElement('canvas'), 'webgl2'),
      'offscreen=' + context(new OffscreenCanvas(8, 8), 'webgl'),
      'offscreen2=' + context(new OffscreenCanvas(8, 8), 'webgl2'),
      'gpu=' + typeof navigator.gpu,
      'canvas2d=' + (document.createElement('canvas').getContext('2d') !== null),
    ].join(' ');
  </script>`;
  const output = await renderer.renderPdf({ html, pdf: {}, viewport, javascript: 'enabled' });
  const text = execFileSync('pdftotext', ['-', '-'], { input: output.bytes }).toString().trim();
  // 2D canvas stays: it is drawn in the renderer itself
  expect(text).toBe('webgl=null experimental=null webgl2=null offscreen=null offscreen2=null gpu=undefined canvas2d=true');
});

test("every process below the browser is inside Chromium's sandbox: its seccomp filter, or namespaces of its own", async () => {
  await duringRender(renderer, async (leader) => {
    await expect.poll(() => processes(leader).some((child) => child.type === 'renderer'), { timeout: 30_000 }).toBe(true);
    const all = processes(leader);
    // Chromium's fork server for processes that sandbox themselves once started (the GPU
    // process): it runs nothing of a page and answers the browser alone
    const forkServer = all.filter((child) => child.type === 'zygote' && child.commandLine.includes(' --no-zygote-sandbox'));
    expect(forkServer).toHaveLength(1);
    // the Chromium browser process is the fork server's parent, whatever launch chain starts it
    const browser = all.find((candidate) => candidate.pid === forkServer[0]!.parent)!;
    expect(browser.type).toBe('none');
    // what starts the browser (an account switch, a sandbox launcher) stays above it
    const launchChain = new Set<number>();
    for (let pid: number | undefined = browser.pid; pid !== undefined && !launchChain.has(pid); pid = all.find((up) => up.pid === pid)?.parent) launchChain.add(pid);
    const below = all.filter((child) => !launchChain.has(child.pid));
    // Chromium stacks its filter on the one the browser process carries (the service's)
    const sandboxed = (child: ChromiumProcess) =>
      child.filters > browser.filters || child.userNamespace !== browser.userNamespace || child.pidNamespace !== browser.pidNamespace;
    const outside = below.filter((child) => !forkServer.includes(child) && !sandboxed(child));
    expect(outside.map(({ pid, type, filters }) => ({ pid, type, filters }))).toEqual([]);
    // a renderer has both
    const renderers = below.filter((child) => child.type === 'renderer');
    expect(renderers.map((child) => child.filters > browser.filters && child.userNamespace !== browser.userNamespace)).not.toContain(false);
  });
});
