// What a document sees of its page's visibility and of time: without script, its CSS animations
// are settled before the capture (a finite one at its end, an endless one at its start), in a
// PDF and in an image alike, whether its sandbox is new or kept; with script the page is shown,
// so script gets animation frames and a visible document, also in a sandbox whose last job
// printed a PDF without script (printed from a hidden page). Checked on the output: the colour
// where the boxes are, the text the script wrote.
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JavascriptMode } from '@svc/contracts';
import { Renderer } from '../src/index.ts';
import { colourAt, paintedAt } from './support/pixels.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 1, warmSandboxes: 4 });
});

afterAll(async () => {
  await renderer?.close();
});

const SIZE = { width: 400, height: 200 };

/**
 * Two boxes side by side: the left one's colour goes from red to green over 60 s and stays
 * green (a finite animation), the right one's from blue to yellow and back for ever.
 */
const ANIMATED = `<style>
  body { margin: 0; display: flex }
  div { width: 200px; height: 200px }
  @keyframes settle { from { background: rgb(255, 0, 0) } to { background: rgb(0, 160, 0) } }
  @keyframes pulse { from { background: rgb(0, 0, 255) } to { background: rgb(255, 255, 0) } }
  #finite { animation: settle 60s forwards }
  #endless { animation: pulse 1s infinite alternate }
</style><div id="finite"></div><div id="endless"></div>`;

const pdf = (account: string, html: string, javascript: JavascriptMode = 'disabled') =>
  renderer.renderPdf({ account, html, javascript, pdf: { width: '400px', height: '200px' }, viewport: { ...SIZE, device_scale_factor: 1 } });

const image = (account: string, html: string, javascript: JavascriptMode = 'disabled') =>
  renderer.renderImage({ account, html, javascript, image: { format: 'png', ...SIZE } });

const pdfText = (bytes: Uint8Array) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();

/** Close enough to the colour to tell it from the others in play (PDF rasterisation rounds a little). */
function near(actual: number[], expected: number[]): boolean {
  return actual.every((value, index) => Math.abs(value - expected[index]!) <= 12);
}

const GREEN = [0, 160, 0];
const BLUE = [0, 0, 255];

describe('CSS animations without script are settled before the capture', () => {
  test('a PDF shows a finite animation at its end and an endless one at its start, in a new sandbox and in a kept one', async () => {
    for (const round of ['new sandbox', 'kept sandbox']) {
      const { bytes } = await pdf('animations-pdf', ANIMATED);
      expect(near(await paintedAt(bytes, 0.25, 0.5), GREEN), `${round}: finite`).toBe(true);
      expect(near(await paintedAt(bytes, 0.75, 0.5), BLUE), `${round}: endless`).toBe(true);
    }
  });

  test('an image shows them the same way, and two renders of it are the same bytes', async () => {
    const first = (await image('animations-image', ANIMATED)).bytes;
    expect(near(await colourAt(first, 0.25, 0.5), GREEN)).toBe(true);
    expect(near(await colourAt(first, 0.75, 0.5), BLUE)).toBe(true);
    // the endless animation would be caught at another moment if it still ran
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = (await image('animations-image', ANIMATED)).bytes;
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });

  test("with script on the document's animations are its own: the finite one is far from its end", async () => {
    const { bytes } = await pdf('animations-script', ANIMATED, 'enabled');
    expect(near(await paintedAt(bytes, 0.25, 0.5), GREEN)).toBe(false);
  });
});

describe('a page that runs script is shown', () => {
  // waits for an animation frame (a hidden page never gets one) and writes what it saw
  const FRAME = `<p id="out">waiting</p><script>
    window.svcReady = false;
    requestAnimationFrame(() => {
      document.getElementById('out').textContent = 'frame in a ' + document.visibilityState + ' page';
      window.svcReady = true;
    });
  </script>`;

  test('in a new sandbox', async () => {
    expect(pdfText((await pdf('frames-new', FRAME, 'enabled')).bytes)).toContain('frame in a visible page');
  });

  test('in a sandbox whose last job printed a PDF without script, and after it an image', async () => {
    expect(pdfText((await pdf('frames-kept', '<p>no script</p>')).bytes)).toContain('no script');
    expect(pdfText((await pdf('frames-kept', FRAME, 'enabled')).bytes)).toContain('frame in a visible page');
    expect(pdfText((await pdf('frames-kept', '<p>no script again</p>')).bytes)).toContain('no script again');
    const drawn = await image('frames-kept', '<body style="margin:0;background:rgb(0,0,255)"></body>');
    expect(near(await colourAt(drawn.bytes, 0.5, 0.5), BLUE)).toBe(true);
    expect(pdfText((await pdf('frames-kept', FRAME, 'enabled')).bytes)).toContain('frame in a visible page');
  });
});

test('a PDF without script prints its raster images from a page never shown, in a new sandbox and in a kept one', async () => {
  // a PNG of green and blue halves: in a page never drawn decode() never settles, so the
  // preparation leaves decoding to printing
  const halves = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 0, g: 160, b: 0 } } })
    .composite([{ input: { create: { width: 100, height: 100, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: 100, top: 0 }])
    .png()
    .toBuffer();
  const html = `<body style="margin:0"><img src="data:image/png;base64,${halves.toString('base64')}" style="display:block;width:400px;height:200px"></body>`;
  for (const round of ['new sandbox', 'kept sandbox']) {
    const { bytes } = await pdf('raster-pdf', html);
    expect(near(await paintedAt(bytes, 0.25, 0.5), GREEN), `${round}: left half`).toBe(true);
    expect(near(await paintedAt(bytes, 0.75, 0.5), BLUE), `${round}: right half`).toBe(true);
  }
});
