// Proves the network sandbox with a canary: local servers on 127.0.0.1 and [::1] (HTTP, raw TCP
// for WebSocket, UDP for WebRTC) that count every connection or datagram. Each vector must fail
// its render as unsafe_asset/blocked_request AND the canary must never be reached.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createHttpServer, get as httpGet, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type RenderPdfInput } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

interface Canary {
  /** HTTP port, on 127.0.0.1 and ::1, and UDP port on 127.0.0.1 */
  port: number;
  /** raw TCP port for the WebSocket vectors */
  rawPort: number;
  hits(): number;
  close(): Promise<void>;
}

/** HTTP on 127.0.0.1 and ::1, a raw TCP listener (for ws://) and UDP, all counting. */
async function startCanary(): Promise<Canary> {
  let hits = 0;
  const count = () => {
    hits += 1;
  };
  const http4 = createHttpServer((_, response) => response.end('canary'));
  http4.on('connection', count);
  await listen(http4, 0, '127.0.0.1');
  const port = (http4.address() as { port: number }).port;
  const http6 = createHttpServer((_, response) => response.end('canary'));
  http6.on('connection', count);
  await listen(http6, port, '::1');
  // WebSocket vectors point at this one: a bare TCP listener answers any upgrade attempt
  const raw = createTcpServer((socket) => {
    count();
    socket.destroy();
  });
  await listen(raw, 0, '127.0.0.1');
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', count);
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  const rawPort = (raw.address() as { port: number }).port;
  return {
    port,
    rawPort,
    hits: () => hits,
    async close() {
      udp.close();
      await Promise.all([http4, http6, raw].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

function listen(server: Server | TcpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

let renderer: Renderer;
let canary: Canary;
/** hits before the vectors run: the positive control below adds one */
let canaryBaseline = 0;

beforeAll(async () => {
  canary = await startCanary();
  renderer = await Renderer.start({ concurrency: 4, renderTimeoutMs: 15_000 });
});

afterAll(async () => {
  await renderer?.close();
  await canary?.close();
});

const viewport = { width: 800, height: 600, device_scale_factor: 1 };

async function renderFails(html: string, javascript: 'disabled' | 'enabled', extra: Partial<RenderPdfInput> = {}): Promise<RenderError> {
  const error = await renderer.renderPdf({ html, pdf: {}, viewport, javascript, ...extra }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error as RenderError;
}

test('the canary itself counts connections (positive control)', async () => {
  const before = canary.hits();
  await new Promise<void>((resolve, reject) => {
    httpGet(`http://127.0.0.1:${canary.port}/`, (response) => {
      response.resume();
      response.on('end', () => resolve());
    }).on('error', reject);
  });
  expect(canary.hits()).toBe(before + 1);
  canaryBaseline = canary.hits();
});

/** Vectors are written with PORT and WSPORT; the canary's ports exist only once it runs. */
function pointAtCanary(html: string): string {
  return html.replaceAll('WSPORT', String(canary.rawPort)).replaceAll('PORT', String(canary.port));
}

// Without javascript: markup and CSS alone.
const markupVectors: [string, string][] = [
  ['img 127.0.0.1', `<img src="http://127.0.0.1:PORT/a.png">`],
  ['img localhost', `<img src="http://localhost:PORT/a.png">`],
  ['img decimal IP', `<img src="http://2130706433:PORT/a.png">`],
  ['img IPv6 loopback', `<img src="http://[::1]:PORT/a.png">`],
  ['img https', `<img src="https://127.0.0.1:PORT/a.png">`],
  ['img srcset', `<img srcset="http://127.0.0.1:PORT/a.png 1x">`],
  ['relative url under <base>', `<base href="http://127.0.0.1:PORT/"><img src="a.png">`],
  ['css url()', `<div style="width:10px;height:10px;background:url(http://127.0.0.1:PORT/b.png)"></div>`],
  ['css @import', `<style>@import url("http://localhost:PORT/c.css");</style><p>x</p>`],
  ['stylesheet link', `<link rel="stylesheet" href="http://127.0.0.1:PORT/s.css"><p>x</p>`],
  ['web font', `<style>@font-face{font-family:X;src:url(http://127.0.0.1:PORT/f.woff2)}p{font-family:X}</style><p>x</p>`],
  ['iframe', `<iframe src="http://127.0.0.1:PORT/"></iframe>`],
  ['object', `<object data="http://127.0.0.1:PORT/o" type="text/html"></object>`],
  ['svg image', `<svg width="10" height="10"><image href="http://127.0.0.1:PORT/i.png" width="10" height="10"/></svg>`],
  ['video poster', `<video poster="http://127.0.0.1:PORT/v.png"></video>`],
  ['file: image', `<img src="file:///etc/hostname">`],
  ['file: iframe', `<iframe src="file:///etc/passwd"></iframe>`],
  ['chrome: image', `<img src="chrome://version/">`],
  ['ftp:', `<img src="ftp://127.0.0.1:PORT/x.png">`],
  ['ws: as image', `<img src="ws://127.0.0.1:WSPORT/x">`],
  ['meta refresh', `<meta http-equiv="refresh" content="0;url=http://127.0.0.1:PORT/"><p>x</p>`],
  // no server is ever reached, so a real redirect cannot start; the closest is a frame that
  // redirects itself to the canary once loaded
  ['redirect from a data: frame', `<iframe src="data:text/html,<meta http-equiv=refresh content='0;url=http://127.0.0.1:PORT/r'>"></iframe>`],
  ['image inside a data: frame', `<iframe src="data:text/html,<img src='http://127.0.0.1:PORT/d.png'>"></iframe>`],
  ['image inside srcdoc', `<iframe srcdoc="<img src='http://127.0.0.1:PORT/s.png'>"></iframe>`],
  ['link prefetch', `<link rel="prefetch" href="http://127.0.0.1:PORT/p"><p>x</p>`],
  ['link preconnect', `<link rel="preconnect" href="http://127.0.0.1:PORT"><p>x</p>`],
  ['link dns-prefetch', `<link rel="dns-prefetch" href="http://localhost:PORT"><p>x</p>`],
  ['link preload', `<link rel="preload" as="image" href="http://127.0.0.1:PORT/pl.png"><p>x</p>`],
];

// With javascript enabled: the network rules still hold.
const blobWorker = (body: string) => `URL.createObjectURL(new Blob([${JSON.stringify(body)}], {type: 'text/javascript'}))`;
const scriptVectors: [string, string][] = [
  ['fetch', `<script>fetch('http://127.0.0.1:PORT/f').catch(() => {})</script>`],
  ['fetch IPv6', `<script>fetch('http://[::1]:PORT/f').catch(() => {})</script>`],
  ['XMLHttpRequest', `<script>const x = new XMLHttpRequest(); x.open('GET', 'http://localhost:PORT/x'); x.send()</script>`],
  ['WebSocket', `<script>new WebSocket('ws://127.0.0.1:WSPORT/w')</script>`],
  ['WebSocket wss', `<script>new WebSocket('wss://127.0.0.1:WSPORT/w')</script>`],
  ['Worker from a URL', `<script>try { new Worker('http://127.0.0.1:PORT/w.js') } catch {}</script>`],
  ['Worker from a blob that fetches', `<script>new Worker(${blobWorker(`fetch('http://127.0.0.1:PORT/wf')`)})</script>`],
  ['SharedWorker', `<script>try { new SharedWorker(${blobWorker(`fetch('http://127.0.0.1:PORT/sw')`)}) } catch {}</script>`],
  ['ServiceWorker', `<script>navigator.serviceWorker?.register('http://127.0.0.1:PORT/sw.js').catch(() => {}); window.ServiceWorkerContainer && ServiceWorkerContainer.prototype.register.call(navigator.serviceWorker, 'x.js').catch(() => {})</script>`],
  ['EventSource', `<script>new EventSource('http://127.0.0.1:PORT/es')</script>`],
  ['sendBeacon', `<script>navigator.sendBeacon('http://127.0.0.1:PORT/b', 'x')</script>`],
  ['dynamic import', `<script type="module">import('http://127.0.0.1:PORT/m.js').catch(() => {})</script>`],
  ['script src', `<script src="http://127.0.0.1:PORT/s.js"></script>`],
  ['location navigation', `<script>location.href = 'http://127.0.0.1:PORT/nav'</script>`],
  ['window.open', `<script>window.open('http://127.0.0.1:PORT/popup')</script>`],
  ['iframe added by script', `<body><script>const f = document.createElement('iframe'); f.src = 'http://localhost:PORT/'; document.body.appendChild(f)</script></body>`],
  ['image added by script', `<body><script>const i = new Image(); i.src = 'http://2130706433:PORT/i.png'; document.body.appendChild(i)</script></body>`],
  ['WebRTC STUN and TURN', `<script>const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:PORT'}, {urls: 'turn:127.0.0.1:PORT?transport=tcp', username: 'u', credential: 'c'}]}); pc.createDataChannel('x'); pc.createOffer().then((o) => pc.setLocalDescription(o))</script>`],
  ['WebTransport', `<script>try { new WebTransport('https://127.0.0.1:PORT/wt') } catch {}</script>`],
  ['a hint added by script that hides it from the page world\'s DOM functions', `<script>const l = document.createElement('link'); l.rel = 'preconnect'; l.href = 'http://127.0.0.1:PORT/'; document.head.appendChild(l);
    Element.prototype.getAttribute = () => 'canonical'; Document.prototype.querySelectorAll = () => []; Document.prototype.querySelector = () => null</script>`],
  ['speculation rules', `<script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["http://127.0.0.1:PORT/spec"]}]}</script><p>x</p>`],
];

describe('blocked without javascript', () => {
  test.concurrent.for(markupVectors)('%s', async ([, html]) => {
    const error = await renderFails(pointAtCanary(html), 'disabled');
    expect([error.category, error.code]).toEqual(['unsafe_asset', 'blocked_request']);
    expect(canary.hits()).toBe(canaryBaseline);
  });
});

describe('blocked with javascript enabled', () => {
  test.concurrent.for(scriptVectors)('%s', async ([, html]) => {
    const error = await renderFails(pointAtCanary(html), 'enabled');
    expect([error.category, error.code]).toEqual(['unsafe_asset', 'blocked_request']);
    expect(canary.hits()).toBe(canaryBaseline);
  });
});

test('references that are not requests render fine: links, forms, canonical, icon, manifest', async () => {
  const html = `<link rel="canonical" href="http://127.0.0.1:PORT/"><link rel="icon" href="http://127.0.0.1:PORT/favicon.ico">
    <link rel="manifest" href="http://127.0.0.1:PORT/m.json">
    <p><a href="http://127.0.0.1:PORT/doc">a hyperlink</a> <a href="mailto:someone@example.com">mail</a></p>
    <form action="http://127.0.0.1:PORT/post" method="post"><input name="a" value="b"><button>Send</button></form>`;
  const output = await renderer.renderPdf({ html: pointAtCanary(html), pdf: {}, viewport, javascript: 'disabled' });
  // the hyperlink survives as a link annotation in the PDF
  const { PDFDocument, PDFArray, PDFName } = await import('pdf-lib');
  const document = await PDFDocument.load(output.bytes);
  expect(document.getPage(0).node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.size()).toBeGreaterThanOrEqual(2);
  expect(canary.hits()).toBe(canaryBaseline);
});

test('a header template cannot reach the network either', async () => {
  const header = `<div style="font-size:8px"><img src="http://127.0.0.1:${canary.port}/h.png">h</div>`;
  await renderer
    .renderPdf({ html: '<p>body</p>', pdf: { display_header_footer: true, header_template: header, margins: { top: '2cm' } }, viewport, javascript: 'disabled' })
    .catch(() => undefined); // refused or rendered without the image: either way nothing may leave
  expect(canary.hits()).toBe(canaryBaseline);
});

test('javascript disabled really disables script', async () => {
  const output = await renderer.renderImage({
    html: '<body style="margin:0;background:#fff"><script>document.body.style.background = "#f00"</script></body>',
    image: { format: 'png', width: 320, height: 200 },
    javascript: 'disabled',
  });
  const { default: sharp } = await import('sharp');
  const { data } = await sharp(output.bytes).raw().toBuffer({ resolveWithObject: true });
  expect([data[0], data[1], data[2]]).toEqual([255, 255, 255]);
});

test('after all vectors, and a moment for late connections, the canary saw nothing', async () => {
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(canary.hits()).toBe(canaryBaseline);
});
