// Chromium's own sandbox, seen from the outside: what /proc shows of the browser and its
// renderers while a render runs, what their environment holds, and what the browser's account
// can read of the service. The service's secrets are planted in this process's environment
// before the browser starts, as the worker would have them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inViewOf } from '../../sandbox/test/support/sandbox-view.ts';
import { RenderError } from '@svc/contracts';
import { DEFAULT_CHROMIUM_PATH, Renderer } from '../src/index.ts';
import { duringRender, processTree } from './support/processes.ts';

const SECRETS = {
  SVC_SIGNING_SECRET: 'canary-signing-secret-7f3a',
  DATABASE_URL: 'postgres://svc:canary-db-password@127.0.0.1:1/svc',
  AWS_SECRET_ACCESS_KEY: 'canary-aws-secret-9c21',
  SVC_AI_API_KEY: 'canary-ai-key-5d0e',
};
const TENANT_SECRET = 'canary-tenant-file-0b7c';
const viewport = { width: 800, height: 600, device_scale_factor: 1 };

let renderer: Renderer;
/** stands in for SVC_DATA_DIR: private to the service's user, as the service keeps it */
let dataDir: string;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  dataDir = mkdtempSync(join(tmpdir(), 'svc-sandbox-data-'));
  writeFileSync(join(dataDir, 'tenant.html'), `<p>${TENANT_SECRET}</p>`, { mode: 0o600 });
  renderer = await Renderer.start({ concurrency: 1, warmSandboxes: 0 });
});

afterAll(async () => {
  await renderer?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface ProcessStatus {
  uids: number[];
  seccomp: number;
  noNewPrivs: number;
}

function status(pid: number): ProcessStatus {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => text.match(new RegExp(`^${name}:\\s*(.*)$`, 'm'))?.[1] ?? '';
  return { uids: field('Uid').split(/\s+/).map(Number), seccomp: Number(field('Seccomp')), noNewPrivs: Number(field('NoNewPrivs')) };
}

/** A process's command line as one string: Chromium's children rewrite theirs into a single space-separated one. */
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

const chromiumPath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

/** Chromium's own browser process: below the sandbox's processes, the one running the executable without a --type. */
function chromiumBrowser(browserPid: number): number {
  const found = processTree(browserPid).find((pid) => {
    try {
      const line = commandLine(pid);
      return line.startsWith(`${chromiumPath} `) && !line.includes(' --type=');
    } catch {
      return false;
    }
  });
  if (found === undefined) throw new Error('no Chromium browser process below the sandbox');
  return found;
}

/** The process group a process belongs to. */
const processGroup = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
};

async function waitForRenderer(browserPid: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const found = processTree(browserPid).find((pid) => {
      try {
        return commandLine(pid).includes(' --type=renderer ');
      } catch {
        return false;
      }
    });
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no renderer process appeared');
}

test('the browser runs with its own sandbox on, as a non-root account, with no new privileges', async () => {
  await duringRender(renderer, async (browserPid) => {
    expect(commandLine(browserPid)).not.toContain(' --no-sandbox');
    const browser = status(browserPid);
    expect(browser.uids.every((uid) => uid !== 0)).toBe(true);
    if (process.getuid?.() !== 0) expect(browser.uids[0]).toBe(process.getuid?.());
    expect(browser.noNewPrivs).toBe(1);
    // Chromium filters its children's system calls, not its own: the browser process carries
    // the launcher's deny-list filter (seccomp-filter.ts)
    expect(browser.seccomp).toBe(2);
  });
});

test('Chromium runs below bubblewrap, in the process group the pool kills, in namespaces of its own', async () => {
  await duringRender(renderer, async (browserPid) => {
    // the pid puppeteer holds is the sandbox's: bubblewrap, which stays as Chromium's ancestor
    expect(commandLine(browserPid)).toContain('/usr/bin/bwrap ');
    const chromium = chromiumBrowser(browserPid);
    expect(chromium).not.toBe(browserPid);
    expect(processGroup(chromium)).toBe(browserPid);
    expect(commandLine(chromium)).not.toContain(' --no-sandbox');
    const chromiumStatus = status(chromium);
    expect(chromiumStatus.uids.every((uid) => uid !== 0)).toBe(true);
    expect(chromiumStatus.noNewPrivs).toBe(1);
    expect(chromiumStatus.seccomp).toBe(2);
    for (const namespace of ['user', 'pid', 'mnt', 'ipc', 'uts']) {
      expect(readlinkSync(`/proc/${chromium}/ns/${namespace}`)).not.toBe(readlinkSync(`/proc/self/ns/${namespace}`));
    }
    // the network stays the host's: job contexts reach their tripwire listener on loopback
    expect(readlinkSync(`/proc/${chromium}/ns/net`)).toBe(readlinkSync('/proc/self/ns/net'));
  });
});

test("from inside the browser's sandbox the data directory, the checkout, home, other temporary files and the service's processes are not there", async () => {
  await duringRender(renderer, async (browserPid) => {
    const chromium = chromiumBrowser(browserPid);
    const missing = (command: string, args: string[]) => expect(() => inViewOf(chromium, command, args)).toThrow(/No such file or directory/);
    missing('cat', [join(dataDir, 'tenant.html')]);
    missing('ls', [dataDir]);
    missing('ls', [process.cwd()]);
    missing('ls', [homedir()]);
    // a /proc of the sandbox's own: none of the service's processes, so none of their environments
    missing('cat', [`/proc/${process.pid}/environ`]);
    const pids = inViewOf(chromium, 'ls', ['/proc']).split('\n').filter((entry) => /^\d+$/.test(entry)).map(Number);
    expect(pids).not.toContain(process.pid);
    expect(pids.length).toBeLessThanOrEqual(processTree(browserPid).length);
    // of the system temporary directory, only the browser's own profile
    const profile = renderer.status().userDataDir!;
    expect(inViewOf(chromium, 'ls', ['-A', tmpdir()]).split('\n').filter(Boolean)).toEqual([basename(profile)]);
    // the system's files and the fonts are there, read-only
    expect(inViewOf(chromium, 'ls', ['/usr/share/fonts'])).toContain('truetype');
    expect(() => inViewOf(chromium, 'touch', ['/usr/share/fonts/written'])).toThrow(/Read-only file system|Permission denied/);
  });
});

test('every process of the browser is seccomp-filtered, non-root and without new privileges', async () => {
  await duringRender(renderer, async (browserPid) => {
    await waitForRenderer(browserPid);
    const tree = processTree(browserPid);
    // the browser, its zygotes, the renderer and the network/utility processes
    expect(tree.length).toBeGreaterThan(3);
    let seen = 0;
    for (const pid of tree) {
      let processStatus: ProcessStatus;
      try {
        processStatus = status(pid);
      } catch (error) {
        // a process that ended while we walked the tree has nothing left to show
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') continue;
        throw error;
      }
      seen += 1;
      expect({ pid, ...processStatus, root: processStatus.uids.some((uid) => uid === 0) }).toMatchObject({ pid, seccomp: 2, noNewPrivs: 1, root: false });
    }
    expect(seen).toBeGreaterThan(3);
  });
});

test('a renderer is seccomp-filtered, has no new privileges and sits in its own user and PID namespaces', async () => {
  await duringRender(renderer, async (browserPid) => {
    const rendererPid = await waitForRenderer(browserPid);
    expect(commandLine(rendererPid)).not.toContain(' --no-sandbox');
    const rendererStatus = status(rendererPid);
    expect(rendererStatus.uids.every((uid) => uid !== 0)).toBe(true);
    expect(rendererStatus.seccomp).toBe(2);
    expect(rendererStatus.noNewPrivs).toBe(1);
    // Chromium's own namespaces, nested in the sandbox's: different from its browser process's
    const chromium = chromiumBrowser(browserPid);
    for (const namespace of ['user', 'pid']) {
      expect(readlinkSync(`/proc/${rendererPid}/ns/${namespace}`)).not.toBe(readlinkSync(`/proc/${chromium}/ns/${namespace}`));
    }
  });
});

test("no process of the browser holds the service's variables in its environment", async () => {
  await duringRender(renderer, async (browserPid) => {
    await waitForRenderer(browserPid);
    const tree = processTree(browserPid);
    expect(tree.length).toBeGreaterThan(2);
    for (const pid of tree) {
      let environment: string;
      try {
        environment = readFileSync(`/proc/${pid}/environ`, 'utf8');
      } catch (error) {
        // a process that ended while we walked the tree has nothing left to show
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') continue;
        throw error;
      }
      const names = environment.split('\0').filter(Boolean).map((line) => line.slice(0, line.indexOf('=')));
      for (const [name, value] of Object.entries(SECRETS)) {
        expect(names).not.toContain(name);
        expect(environment).not.toContain(value);
      }
      expect(names.filter((name) => name.startsWith('SVC_') || name.startsWith('AWS_'))).toEqual([]);
      // its home and temporary directory are the profile's own
      if (pid === browserPid) {
        expect(names.sort()).toEqual(expect.arrayContaining(['HOME', 'PATH', 'TMPDIR']));
        expect(environment).toContain(`HOME=${renderer.status().userDataDir}/`);
      }
    }
  });
});

test("the browser's account cannot read the service's private files or its environment", async () => {
  await duringRender(renderer, async (browserPid) => {
    const [uid] = status(browserPid).uids;
    const gid = Number(readFileSync(`/proc/${browserPid}/status`, 'utf8').match(/^Gid:\s*(\d+)/m)![1]);
    // as the browser's account, the way a process that escaped the renderer would run
    const readAs = (path: string) =>
      execFileSync('/usr/bin/setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', 'cat', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (process.getuid?.() === 0) {
      expect(() => readAs(join(dataDir, 'tenant.html'))).toThrow(/Permission denied/);
      expect(() => readAs(`/proc/${process.pid}/environ`)).toThrow(/Permission denied/);
    }
    // the profile is the account's own, closed to everyone else
    const profile = renderer.status().userDataDir!;
    const owner = execFileSync('stat', ['-c', '%u %a', profile], { encoding: 'utf8' }).trim();
    expect(owner).toBe(`${uid} 700`);
  });
});

test('a page with script on that reaches for the data directory through file: gets nothing', async () => {
  const target = `file://${join(dataDir, 'tenant.html')}`;
  const html = `<p id="out">none</p><script>
    const out = document.getElementById('out');
    fetch(${JSON.stringify(target)}).then((r) => r.text()).then((t) => { out.textContent = t; }).catch(() => {});
    const x = new XMLHttpRequest();
    try { x.open('GET', ${JSON.stringify(target)}, false); x.send(); out.textContent += x.responseText; } catch {}
    const f = document.createElement('iframe'); f.src = ${JSON.stringify(target)}; document.body.appendChild(f);
  </script>`;
  const result = await renderer.renderPdf({ html, pdf: {}, viewport, javascript: 'enabled' }).then(
    (output) => ({ text: execFileSync('pdftotext', ['-', '-'], { input: output.bytes }).toString(), error: null }),
    (error: unknown) => ({ text: '', error }),
  );
  // refused as a blocked request, or rendered without a byte of the file
  if (result.error) expect(result.error instanceof RenderError && result.error.code).toBe('blocked_request');
  expect(result.text).not.toContain(TENANT_SECRET);
});
