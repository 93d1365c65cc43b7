// Warm sandboxes: an account's next job may reuse the sandbox its last job used, after a reset.
// Job A (the attacker, script on) leaves everything it can; job B of the same account runs on
// the same sandbox (the same renderer process) and must see none of it; job C of another
// account runs in another renderer process. Renderer processes are told apart by their CPU:
// each job busy-loops briefly, and the process that burned the time is the job's.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type RenderPdfInput } from '@svc/contracts';
import { Renderer } from '../src/index.ts';
import { browserProcesses, cpuTicks } from './support/processes.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 1, warmSandboxes: 4, warmSandboxJobs: 1_000, renderTimeoutMs: 15_000 });
});

afterAll(async () => {
  await renderer?.close();
});

const job = (account: string, html: string, javascript: 'enabled' | 'disabled' = 'enabled'): RenderPdfInput => ({
  account,
  html,
  javascript,
  pdf: {},
  viewport: { width: 1280, height: 720, device_scale_factor: 1 },
});

async function text(input: RenderPdfInput): Promise<string> {
  const output = await renderer.renderPdf(input);
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: output.bytes }).toString();
}

/** Live renderer processes of the current browser. */
function rendererProcesses(): number[] {
  const { browserPid, userDataDir } = renderer.status();
  return browserProcesses(browserPid ?? -1, userDataDir ?? '\0', (cmdline) => cmdline.includes('--type=renderer'));
}

/** Runs a render whose page spins for a moment, and returns the renderer process that spun. */
async function processOf(input: RenderPdfInput): Promise<{ pid: number; text: string }> {
  const before = new Map(rendererProcesses().map((pid) => [pid, cpuTicks(pid)]));
  const rendered = await text({ ...input, html: `<script>const end = Date.now() + 400; while (Date.now() < end) {}</script>${input.html}` });
  // a sandbox prepared ahead may start its renderer only when its first job arrives
  const spent = (pid: number) => cpuTicks(pid) - (before.get(pid) ?? 0);
  const pid = rendererProcesses().reduce((best, candidate) => (spent(candidate) > spent(best) ? candidate : best));
  return { pid, text: rendered };
}

// What job A tries: every storage API, globals, window.name, timers, a blob: URL and a channel.
const ATTACK = `<p id="out">A</p><script>
  const out = [];
  const attempt = (name, work) => { try { const result = work(); if (result && result.catch) result.catch(() => {}); out.push(name + '=ok'); } catch (error) { out.push(name + '=' + error.name); } };
  attempt('localStorage', () => localStorage.setItem('k', 'A-STORED'));
  attempt('sessionStorage', () => sessionStorage.setItem('k', 'A-STORED'));
  attempt('indexedDB', () => indexedDB.open('a'));
  attempt('cookie', () => { document.cookie = 'k=A-STORED'; });
  attempt('caches', () => caches.open('a'));
  attempt('locks', () => navigator.locks.request('a', () => new Promise(() => {})));
  window.leak = 'A-GLOBAL';
  window.name = 'A-NAME';
  setInterval(() => document.body.insertAdjacentHTML('beforeend', '<p>A-INTERVAL</p>'), 1);
  setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>A-TIMEOUT</p>'), 30);
  const blob = URL.createObjectURL(new Blob(['A-BLOB']));
  const channel = new BroadcastChannel('svc');
  setInterval(() => channel.postMessage('A-MESSAGE'), 1);
  document.getElementById('out').textContent = 'A ' + out.join(' ') + ' BLOB ' + blob;
</script>`;

// What job B looks for: A's storage, globals, name and history (read synchronously), and A's
// channel messages, which would be written into the page as they arrive before the capture.
const PROBE = `<p id="out">B</p><script>
  const seen = [];
  const read = (name, work) => { try { const value = work(); if (value) seen.push(name + ':' + value); } catch (error) {} };
  read('localStorage', () => localStorage.getItem('k'));
  read('sessionStorage', () => sessionStorage.getItem('k'));
  read('cookie', () => document.cookie);
  read('global', () => window.leak);
  read('name', () => window.name);
  new BroadcastChannel('svc').onmessage = (event) => document.body.insertAdjacentHTML('beforeend', '<p>channel:' + event.data + '</p>');
  document.getElementById('out').textContent = 'B history=' + history.length + ' seen=[' + seen.join(' ') + ']';
</script>`;

describe('an account reuses its warm sandbox, and nothing of one job reaches the next', () => {
  test('A (script on) leaves nothing B of the same account can see, on the same renderer process; C of another account gets another process', async () => {
    const a = await processOf(job('account-x', ATTACK));
    // every storage API refuses in the opaque origin setContent documents have
    for (const api of ['localStorage', 'sessionStorage', 'indexedDB', 'cookie', 'caches', 'locks']) {
      expect(a.text).toMatch(new RegExp(`${api}=(SecurityError|TypeError|ReferenceError)`));
    }
    const blob = /BLOB (blob:\S+)/.exec(a.text)?.[1];
    expect(blob).toBeTruthy();

    const b = await processOf(job('account-x', PROBE));
    expect(b.pid).toBe(a.pid);
    expect(b.text).toContain('B history=1 seen=[]');
    expect(b.text).not.toMatch(/A-(INTERVAL|TIMEOUT|STORED|GLOBAL|NAME|BLOB|MESSAGE)/);

    // A's blob: URL went with A's document; reading it is refused (the job fails) or finds nothing
    const readBlob = `<p id="out">none</p><script>
      const request = new XMLHttpRequest();
      try { request.open('GET', ${JSON.stringify(blob)}, false); request.send(); document.getElementById('out').textContent = 'read:' + request.responseText; } catch (error) {}
    </script>`;
    const read = await text(job('account-x', readBlob)).catch((error: unknown) => error);
    if (read instanceof RenderError) expect(read.category).toBe('unsafe_asset');
    else expect(read).not.toContain('A-BLOB');

    const c = await processOf(job('account-y', PROBE));
    expect(c.pid).not.toBe(a.pid);
    expect(c.text).toContain('B history=1 seen=[]');
    expect(c.text).not.toMatch(/A-(INTERVAL|TIMEOUT|STORED|GLOBAL|NAME|BLOB|MESSAGE)/);
  });

  test("a popup that would navigate its opener does not reach the account's next job", async () => {
    const popup = `<p>A-POPUP</p><script>
      window.open('data:text/html,<script>setTimeout(() => { opener.location = "data:text/html,HIJACKED"; }, 100)<\\/script>');
    </script>`;
    // the popup blocker refuses it or the guard fails the job; either way B renders its own content
    await renderer.renderPdf(job('account-p', popup)).catch((error: unknown) => expect(error).toBeInstanceOf(RenderError));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const b = await text(job('account-p', '<p>B-OWN</p><script>document.body.insertAdjacentHTML("beforeend", "<p>history=" + history.length + "</p>")</script>'));
    expect(b).toContain('B-OWN');
    expect(b).toContain('history=1');
    expect(b).not.toContain('HIJACKED');
  });

  test('with script off, a meta refresh left by A does not affect B', async () => {
    const a = await text(job('account-m', '<meta http-equiv="refresh" content="0.3;url=data:text/html,<p>HIJACKED</p>"><p>A-REFRESH</p>', 'disabled'));
    expect(a).toContain('A-REFRESH');
    const b = await text(job('account-m', '<p>B-OWN</p>', 'disabled'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const again = await text(job('account-m', '<p>B-AGAIN</p>', 'disabled'));
    expect(b).toContain('B-OWN');
    expect(again).toContain('B-AGAIN');
    expect(b + again).not.toContain('HIJACKED');
  });

  test('with script off, the reset cancels a meta refresh A scheduled: the page never moves after A', async () => {
    // a fragment navigation needs no request, so nothing but the reset could stop it
    const a = await text(job('account-f', '<meta http-equiv="refresh" content="0.5;url=about:blank#A-REFRESHED"><p>A-OWN</p>', 'disabled'));
    expect(a).toContain('A-OWN');
    expect(await text(job('account-f', '<p>B-OWN</p>', 'disabled'))).toContain('B-OWN');
    await new Promise((resolve) => setTimeout(resolve, 900));
    const c = await text(job('account-f', '<p id="out">C</p><script>document.getElementById("out").textContent = "at " + location.href + " history=" + history.length</script>'));
    expect(c).toContain('at about:blank history=1');
  });

  test("a job whose renderer crashed is not handed on: the account's next job renders on a new process", async () => {
    const before = await processOf(job('account-c', '<p>warm</p>'));
    // a job's time long enough that only the crash ends it, on a busy machine too
    const crash = await renderer
      .renderPdf({ ...job('account-c', '<script>const hoard = []; for (;;) hoard.push(new Array(1e7).fill(1.5))</script>'), timeoutMs: 150_000 })
      .catch((error: unknown) => error);
    expect([(crash as RenderError).category, (crash as RenderError).code]).toEqual(['resource_limit', 'page_crashed']);
    // the crashed process frees gigabytes on its way out, which on a slow machine can outlast the
    // next job and outspend its renderer: the next job starts once it is gone
    await expect.poll(() => rendererProcesses().includes(before.pid), { timeout: 60_000, interval: 100 }).toBe(false);
    const after = await processOf(job('account-c', '<p>B-AFTER-CRASH</p>'));
    expect(after.text).toContain('B-AFTER-CRASH');
    expect(after.pid).not.toBe(before.pid);
  }, 240_000);

  test('script state does not carry over: a job with script off after one with script on runs no script', async () => {
    await text(job('account-s', '<p>on</p>'));
    const off = await text(job('account-s', '<p id="t">SCRIPT-OFF</p><script>document.getElementById("t").textContent = "SCRIPT-RAN"</script>', 'disabled'));
    expect(off).toContain('SCRIPT-OFF');
    expect(off).not.toContain('SCRIPT-RAN');
  });

  test("a warm sandbox left idle empties its last document: what that document still animated stops", async () => {
    // an image (its page is shown) that keeps its renderer busy: a large blurred rectangle whose
    // colour an SVG animation changes for ever (CSS animations are settled before a capture
    // without script, SVG's own are not)
    const animated = `<svg width="1200" height="700"><filter id="b"><feGaussianBlur stdDeviation="12"/></filter>
      <rect width="1200" height="700" filter="url(#b)" fill="#123"><animate attributeName="fill" values="#123;#fed;#123" dur="0.1s" repeatCount="indefinite"/></rect></svg>`;
    const drawn = await renderer.renderImage({ account: 'account-idle', html: animated, javascript: 'disabled', image: { format: 'png', width: 1280, height: 720 } });
    expect(drawn.mediaType).toBe('image/png');
    const busySince = (pids: number[], before: Map<number, number>) => pids.reduce((sum, pid) => sum + cpuTicks(pid) - (before.get(pid) ?? cpuTicks(pid)), 0);
    const spent = async (ms: number) => {
      const pids = rendererProcesses();
      const before = new Map(pids.map((pid) => [pid, cpuTicks(pid)]));
      await new Promise((resolve) => setTimeout(resolve, ms));
      return busySince(pids, before);
    };
    const right = await spent(1_000);
    // the sandbox is tidied after two idle seconds; the reading after that, well clear of it
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const later = await spent(1_000);
    expect(right).toBeGreaterThan(later + 10);
    expect(later).toBeLessThan(3);
    // the account's next job finds the sandbox ready
    expect(await text(job('account-idle', '<p>NEXT</p>', 'disabled'))).toContain('NEXT');
  }, 30_000);

  test('one busy account keeps the same renderer process over 500 jobs: the reset starts none', async () => {
    const first = await processOf(job('account-busy', '<p>first</p>'));
    const processes = rendererProcesses();
    for (let index = 0; index < 500; index++) {
      await renderer.renderPdf(job('account-busy', `<p>job ${index}</p>`, index % 2 === 0 ? 'disabled' : 'enabled'));
    }
    const last = await processOf(job('account-busy', '<p>last</p>'));
    expect(last.pid).toBe(first.pid);
    expect(rendererProcesses().filter((pid) => !processes.includes(pid))).toEqual([]);
  }, 300_000);
});
