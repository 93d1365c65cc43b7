// The DevTools pipe reader sits between Chromium's answers and puppeteer: every message must
// reach puppeteer whole and unchanged whatever the read boundaries, and a printed file must
// reach the caller in full while puppeteer sees only a short answer.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserInstance } from '../src/browser/browser-instance.ts';
import { captureScreenshot, DevToolsPipeReader, printToPdf } from '../src/browser/devtools-pipe.ts';
import { DEFAULT_CHROMIUM_PATH } from '../src/browser/launch-flags.ts';

/** The messages a NUL-framing reader (as puppeteer's is) gets from the stream's data events. */
function collectMessages(stream: PassThrough): string[] {
  const messages: string[] = [];
  let pending = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    let end = pending.indexOf(0);
    while (end !== -1) {
      messages.push(pending.toString('utf8', 0, end));
      pending = pending.subarray(end + 1);
      end = pending.indexOf(0);
    }
  });
  return messages;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the DevTools pipe reader', () => {
  it('hands on every message whole, across any read boundaries, also one begun before it was attached', async () => {
    const stream = new PassThrough();
    const received = collectMessages(stream);
    const big = JSON.stringify({ id: 7, result: { data: 'QUJD'.repeat(40_000) }, sessionId: 'S1' });
    const sent = ['{"id":1,"result":{}}', '{"method":"Page.loadEventFired","params":{"timestamp":1}}', big, '{"id":8,"result":{"value":"é ✓"}}'];
    const bytes = Buffer.from(sent.map((message) => `${message}\0`).join(''));
    // the start of the first message was read before the reader was attached
    stream.write(bytes.subarray(0, 5));
    await flush();
    new DevToolsPipeReader(stream);
    // then reads of every size, one byte, odd lengths, a NUL at the very start of a read
    let offset = 5;
    for (const size of [1, 14, 1, 3, 60_000, 7, 100_000, 1]) {
      stream.write(bytes.subarray(offset, offset + size));
      offset += size;
    }
    stream.write(bytes.subarray(offset));
    await flush();
    // no session expected a file: the large answer goes on as it came
    expect(received).toEqual(sent);
  });

  describe('with Chromium', () => {
    let instance: BrowserInstance;
    beforeAll(async () => {
      instance = await BrowserInstance.launch({ executablePath: process.env.SVC_CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH, launchTimeoutMs: 20_000, onDisconnect: () => {} });
    });
    afterAll(() => instance?.stop());

    it('gives the printed file whole to the caller while puppeteer gets a short answer', async () => {
      const pipe = instance.browser.process()?.stdio[4];
      let longest = 0;
      pipe?.on('data', (chunk: Buffer) => {
        // messages reach this listener one per data event, each with its NUL
        longest = Math.max(longest, chunk.length);
      });
      const context = await instance.browser.createBrowserContext();
      const page = await context.newPage();
      const rows = Array.from({ length: 3_000 }, (_, index) => `<tr><td>${index}</td><td>row ${index * 7919}</td></tr>`).join('');
      await page.setContent(`<table>${rows}</table>`);
      const session = await page.createCDPSession();

      longest = 0;
      const printed = await printToPdf(page, session, { paperWidth: 8.27, paperHeight: 11.7 });
      const shortAnswer = longest;
      // the same print, asked for without the reader expecting it, passes whole through puppeteer
      longest = 0;
      const { data } = await session.send('Page.printToPDF', { paperWidth: 8.27, paperHeight: 11.7, transferMode: 'ReturnAsBase64' });
      const reference = Buffer.from(data, 'base64');
      await context.close();

      expect(printed.length).toBeGreaterThan(200_000);
      expect(longest).toBeGreaterThan(printed.length);
      expect(shortAnswer).toBeLessThan(1_000);
      expect(printed.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(printed.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
      // the two prints differ only in their timestamps and ids: same length, same pages
      expect(printed.length).toBe(reference.length);
      const pages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length;
      expect(pages(printed)).toBe(pages(reference));
      expect(pages(printed)).toBeGreaterThan(20);
    });

    it('gives a screenshot whole to the caller while puppeteer gets a short answer', async () => {
      const pipe = instance.browser.process()?.stdio[4];
      let longest = 0;
      pipe?.on('data', (chunk: Buffer) => (longest = Math.max(longest, chunk.length)));
      const context = await instance.browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: 640, height: 480 });
      // noise does not compress: a PNG of several hundred kilobytes
      await page.setContent(`<canvas width="640" height="480"></canvas><script>
        const c = document.querySelector('canvas').getContext('2d'); const d = c.createImageData(640, 480);
        let x = 2463534242; for (let i = 0; i < d.data.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; d.data[i] = i % 4 === 3 ? 255 : x & 255; }
        c.putImageData(d, 0, 0);</script><style>body{margin:0}</style>`);
      const session = await page.createCDPSession();

      longest = 0;
      const shot = await captureScreenshot(page, session, { format: 'png', fromSurface: true, captureBeyondViewport: false });
      const shortAnswer = longest;
      longest = 0;
      const { data } = await session.send('Page.captureScreenshot', { format: 'png', fromSurface: true, captureBeyondViewport: false });
      const reference = Buffer.from(data, 'base64');
      await context.close();

      expect(shot.length).toBeGreaterThan(200_000);
      expect(longest).toBeGreaterThan(shot.length);
      expect(shortAnswer).toBeLessThan(1_000);
      expect(shot.equals(reference)).toBe(true);
    });
  });
});
