// Defence in depth: the outer layers must hold on their own. Here Chromium runs with the
// renderer's launch flags but with NO request interception, NO observers and script enabled,
// so everything the page tries reaches the network stack. The canary must still see nothing;
// within a job context the tripwire proxy sees the attempts instead.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContextOptions } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountLaunchOptions, browserAccount, makeBrowserDirs } from '../src/browser/browser-account.ts';
import { DEFAULT_CHROMIUM_PATH, headlessMode, launchFlags } from '../src/browser/launch-flags.ts';

const chromiumPath = process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
import { openTripwire } from '../src/browser/tripwire.ts';

let browser: Browser;
let profile: string;
let canary: Server;
let udp: UdpSocket;
let port = 0;
let canaryHits = 0;

beforeAll(async () => {
  canary = createServer((socket) => {
    canaryHits += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  port = (canary.address() as { port: number }).port;
  udp = createSocket('udp4');
  udp.on('message', () => {
    canaryHits += 1;
  });
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  // as the renderer starts it (its own account and sandbox), minus everything above the flags
  const account = browserAccount();
  const dirs = await makeBrowserDirs(account);
  profile = dirs.userDataDir;
  browser = await puppeteer.launch(accountLaunchOptions({ executablePath: chromiumPath, flags: launchFlags(profile), dirs }));
});

afterAll(async () => {
  await browser?.close();
  rmSync(profile, { recursive: true, force: true });
  udp?.close();
  canary?.close();
});

// every vector at once, in one page, script enabled, nothing intercepted
const everything = () => `<body>
  <img src="http://127.0.0.1:${port}/a.png"><img src="http://localhost:${port}/b.png"><img src="http://[::1]:${port}/c.png">
  <img src="http://2130706433:${port}/d.png"><img src="http://example.com/e.png">
  <link rel="stylesheet" href="http://127.0.0.1:${port}/s.css"><link rel="prefetch" href="http://127.0.0.1:${port}/p">
  <link rel="preconnect" href="http://127.0.0.1:${port}"><iframe src="http://127.0.0.1:${port}/f"></iframe>
  <script>
    fetch('http://127.0.0.1:${port}/fetch').catch(() => {});
    try { new WebSocket('ws://127.0.0.1:${port}/ws'); } catch {}
    new EventSource('http://127.0.0.1:${port}/es');
    navigator.sendBeacon('http://127.0.0.1:${port}/beacon', 'x');
    new Worker(URL.createObjectURL(new Blob(["fetch('http://127.0.0.1:${port}/worker')"], { type: 'text/javascript' })));
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${port}' }, { urls: 'turn:127.0.0.1:${port}?transport=tcp', username: 'u', credential: 'c' }] });
    pc.createDataChannel('x'); pc.createOffer().then((offer) => pc.setLocalDescription(offer));
    setTimeout(() => { location.href = 'http://127.0.0.1:${port}/navigate'; }, 300);
  </script></body>`;

async function loadUnprotected(contextOptions: BrowserContextOptions): Promise<void> {
  const context = await browser.createBrowserContext(contextOptions);
  try {
    const page = await context.newPage();
    await page.setContent(everything(), { waitUntil: 'load', timeout: 10_000 }).catch(() => undefined);
    // let late attempts (WebRTC gathering, the delayed navigation) happen
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  } finally {
    await context.close();
  }
}

test('launch flags alone: no name resolves and the browser-wide proxy cannot connect', async () => {
  await loadUnprotected({});
  expect(canaryHits).toBe(0);
});

test('job context: attempts land on the tripwire proxy, never on the canary', async () => {
  let tripwireHits = 0;
  const tripwire = await openTripwire(() => {
    tripwireHits += 1;
  });
  try {
    await loadUnprotected({ proxyServer: tripwire.proxyServer, proxyBypassList: ['<-loopback>'] });
  } finally {
    await tripwire.close();
  }
  expect(canaryHits).toBe(0);
  expect(tripwireHits).toBeGreaterThan(0);
});

test('control: without the flags the same page does reach the canary, so the tests above are not vacuous', async () => {
  const bareProfile = mkdtempSync(join(tmpdir(), 'svc-layers-control-'));
  const bare = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: headlessMode(chromiumPath),
    pipe: true,
    args: ['--no-sandbox', '--disable-gpu', `--user-data-dir=${bareProfile}`],
  });
  try {
    const page = await bare.newPage();
    await page.setContent(`<img src="http://127.0.0.1:${port}/control.png">`, { waitUntil: 'load', timeout: 10_000 });
    expect(canaryHits).toBeGreaterThan(0);
  } finally {
    await bare.close();
    rmSync(bareProfile, { recursive: true, force: true });
    canaryHits = 0;
  }
});
