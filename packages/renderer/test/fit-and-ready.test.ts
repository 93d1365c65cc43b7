// Text fitted to its box (data-svc-fit) and capture when the document says it is ready
// (window.svcReady), checked on the output as a person would: where the ink is, what text the
// PDF holds, whether a late drawing made it in.
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError, type JavascriptMode, type RenderFindings } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const CANVAS = { width: 600, height: 400 };
/** The box every fitted text sits in, in canvas pixels. */
const BOX = { left: 50, top: 50, width: 300, height: 90 };

const LONG = Array.from({ length: 80 }, (_, index) => `word${String(index + 1).padStart(2, '0')}`).join(' ');

const boxed = (text: string, fit = '', style = 'font:40px/1.2 sans-serif') =>
  `<body style="margin:0;background:#fff"><div id="box" ${fit} style="position:absolute;left:${BOX.left}px;top:${BOX.top}px;width:${BOX.width}px;height:${BOX.height}px;${style};color:#000">${text}</div></body>`;

const image = (html: string, javascript: JavascriptMode = 'disabled', timeoutMs?: number) =>
  renderer.renderImage({ html, image: { format: 'png', width: CANVAS.width, height: CANVAS.height }, javascript, timeoutMs });

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The smallest rectangle holding every pixel that matches, or null when none does. */
async function boundsOf(png: Buffer, matches: (red: number, green: number, blue: number) => boolean): Promise<Bounds | null> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let bounds: Bounds | null = null;
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      const at = (y * info.width + x) * info.channels;
      if (!matches(data[at]!, data[at + 1]!, data[at + 2]!)) continue;
      bounds = bounds
        ? { left: Math.min(bounds.left, x), top: Math.min(bounds.top, y), right: Math.max(bounds.right, x), bottom: Math.max(bounds.bottom, y) }
        : { left: x, top: y, right: x, bottom: y };
    }
  }
  return bounds;
}

const dark = (red: number, green: number, blue: number) => red < 128 && green < 128 && blue < 128;
const red = (r: number, g: number, b: number) => r > 200 && g < 60 && b < 60;

function expectInsideBox(bounds: Bounds | null): void {
  expect(bounds).not.toBeNull();
  expect(bounds!.left).toBeGreaterThanOrEqual(BOX.left);
  expect(bounds!.top).toBeGreaterThanOrEqual(BOX.top);
  expect(bounds!.right).toBeLessThan(BOX.left + BOX.width);
  expect(bounds!.bottom).toBeLessThan(BOX.top + BOX.height);
}

const pdfText = async (html: string) => {
  const output = await renderer.renderPdf({ html, pdf: {}, viewport: { width: 800, height: 600, device_scale_factor: 1 }, javascript: 'disabled' });
  return { text: execFileSync('pdftotext', ['-layout', '-', '-'], { input: output.bytes }).toString(), findings: output.findings };
};

describe('data-svc-fit="shrink"', () => {
  test('long text shrinks into its box; short text keeps its size', async () => {
    const [longFitted, longAsWritten, shortFitted, shortAsWritten] = await Promise.all([
      image(boxed(LONG, 'data-svc-fit="shrink"')),
      image(boxed(LONG)),
      image(boxed('Hi', 'data-svc-fit="shrink"')),
      image(boxed('Hi')),
    ]);
    // as written, the long text runs out of the box (so the fitted one proves something)
    const overflowing = await boundsOf(longAsWritten.bytes, dark);
    expect(overflowing!.bottom).toBeGreaterThanOrEqual(BOX.top + BOX.height);
    expectInsideBox(await boundsOf(longFitted.bytes, dark));
    expect(longFitted.findings.problems).toEqual([]);

    const short = await boundsOf(shortFitted.bytes, dark);
    expectInsideBox(short);
    expect(short).toEqual(await boundsOf(shortAsWritten.bytes, dark));
    // 40px type: capital H alone is far taller than anything the long text shrank to
    expect(short!.bottom - short!.top).toBeGreaterThan(20);
  });

  test('at its minimum and still overflowing: a text_fit_minimum problem, the text at the minimum', async () => {
    const output = await image(boxed(LONG, 'data-svc-fit="shrink" data-svc-fit-min="24"'));
    expect(output.findings.problems).toEqual([{ type: 'text_fit_minimum', selector: '#box', font_size: 24 }]);
    const anonymous = await image(`<body style="margin:0"><main><p>first</p><p data-svc-fit="shrink" style="width:50px;height:10px">${LONG}</p></main></body>`);
    expect(anonymous.findings.problems).toEqual([
      { type: 'text_fit_minimum', selector: 'body > main:nth-child(1) > p:nth-child(2)', font_size: 8 },
    ]);
  });

  test('nested text sized in em follows; an invalid value leaves the element as written', async () => {
    const text = LONG.split(' ').slice(0, 30).join(' ');
    const [nested, nestedAsWritten] = await Promise.all([
      image(boxed(`<span style="font-size:1.5em">${text}</span>`, 'data-svc-fit="shrink"', 'font:20px/1.2 sans-serif')),
      image(boxed(`<span style="font-size:1.5em">${text}</span>`, '', 'font:20px/1.2 sans-serif')),
    ]);
    expect((await boundsOf(nestedAsWritten.bytes, dark))!.bottom).toBeGreaterThanOrEqual(BOX.top + BOX.height);
    expectInsideBox(await boundsOf(nested.bytes, dark));
    expect(nested.findings.problems).toEqual([]);
    for (const attributes of ['data-svc-fit="bogus"', 'data-svc-fit="shrink" data-svc-fit-min="-4"', 'data-svc-fit="shrink" data-svc-fit-min="large"']) {
      const output = await image(boxed(LONG, attributes));
      const bounds = await boundsOf(output.bytes, dark);
      expect(bounds!.bottom).toBeGreaterThanOrEqual(BOX.top + BOX.height);
      expect(output.findings.problems).toEqual([]);
    }
  });

  test('in a PDF too, with script enabled', async () => {
    const output = await renderer.renderPdf({ html: boxed(LONG, 'data-svc-fit="shrink" data-svc-fit-min="30"'), pdf: {}, viewport: { width: 800, height: 600, device_scale_factor: 1 }, javascript: 'enabled' });
    expect(output.findings.problems).toEqual([{ type: 'text_fit_minimum', selector: '#box', font_size: 30 }]);
  });
});

describe('data-svc-fit="clamp"', () => {
  const clampStyle = 'font:20px/30px sans-serif';

  test('cuts the text after the last line that fits, with an ellipsis', async () => {
    const [clamped, asWritten] = await Promise.all([pdfText(boxed(LONG, 'data-svc-fit="clamp"', clampStyle)), pdfText(boxed(LONG, '', clampStyle))]);
    expect(asWritten.text).toContain('word80');
    expect(asWritten.text).not.toContain('…');

    const lines = clamped.text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
    // the box holds three 30px lines
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^word01 word02/);
    expect(lines[2]).toMatch(/word\d\d…$/);
    expect(clamped.text).not.toContain('word80');
    expect(clamped.findings.problems).toEqual([]);
  });

  test('the clamped text stays inside its box in an image; short text is untouched', async () => {
    const [clamped, short] = await Promise.all([image(boxed(LONG, 'data-svc-fit="clamp"', clampStyle)), pdfText(boxed('Just a few words', 'data-svc-fit="clamp"', clampStyle))]);
    expectInsideBox(await boundsOf(clamped.bytes, dark));
    expect(short.text.trim()).toBe('Just a few words');
  });
});

describe('the fitting code is the service\'s own', () => {
  test('script that replaces what the page offers does not change fitting', async () => {
    const sabotage = `<script>
      Element.prototype.getAttribute = () => 'bogus';
      Array.prototype.slice = () => [];
      Intl.Segmenter = null;
      Object.defineProperty(Element.prototype, 'scrollHeight', { get: () => 0 });
    </script>`;
    const output = await image(boxed(LONG, 'data-svc-fit="shrink" data-svc-fit-min="24"') + sabotage, 'enabled');
    expect(output.findings.problems).toEqual([{ type: 'text_fit_minimum', selector: '#box', font_size: 24 }]);
  });

  test('one account\'s sandbox, reused with script on and off, fits every job', async () => {
    for (const javascript of ['disabled', 'enabled', 'disabled', 'disabled', 'enabled'] as const) {
      const output = await renderer.renderImage({
        html: boxed(LONG, 'data-svc-fit="shrink" data-svc-fit-min="24"'),
        image: { format: 'png', width: CANVAS.width, height: CANVAS.height },
        javascript,
        account: 'acct_fit_reuse',
      });
      expect(output.findings.problems).toEqual([{ type: 'text_fit_minimum', selector: '#box', font_size: 24 }]);
    }
  });
});

describe('window.svcReady', () => {
  // the chart appears 2 s after load: long enough that a capture that does not wait misses it
  const lateChart = (ready: boolean) => `<body style="margin:0;background:#fff">
    <div id="chart" style="width:200px;height:200px"></div>
    <script>
      ${ready ? 'window.svcReady = false;' : ''}
      setTimeout(() => {
        document.getElementById('chart').style.background = '#f00';
        ${ready ? 'window.svcReady = true;' : ''}
      }, 2000);
    </script></body>`;

  test('a chart drawn after load is in the capture when the document signals ready, missing without', async () => {
    const [waited, control] = await Promise.all([image(lateChart(true), 'enabled'), image(lateChart(false), 'enabled')]);
    expect(await boundsOf(waited.bytes, red)).toEqual({ left: 0, top: 0, right: 199, bottom: 199 });
    expect(waited.findings.timing.ready_wait_ms).toEqual(expect.any(Number));
    expect(await boundsOf(control.bytes, red)).toBeNull();
    expect(control.findings.timing.ready_wait_ms).toBeNull();
  });

  test('never ready: the render times out with a ready_timeout problem', async () => {
    const error = await image('<p>waiting</p><script>window.svcReady = false</script>', 'enabled', 2_000).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).code).toBe('render_timeout');
    const findings = (error as RenderError).findings as RenderFindings;
    expect(findings.problems).toContainEqual({ type: 'ready_timeout' });
    expect(findings.timing.ready_wait_ms).toEqual(expect.any(Number));
  });

  test('a hostile flag: a getter that throws is no wait, one that answers false forever times out', async () => {
    const throwing = await image(`<p>x</p><script>Object.defineProperty(window, 'svcReady', { get() { throw new Error('no'); } })</script>`, 'enabled');
    expect(throwing.findings.timing.ready_wait_ms).toBeNull();
    const stuck = `<p>x</p><script>Object.defineProperty(window, 'svcReady', { get() { return false; }, set() {} }); window.svcReady = true;</script>`;
    const error = await image(stuck, 'enabled', 2_000).catch((caught: unknown) => caught);
    expect((error as RenderError).code).toBe('render_timeout');
    expect((error as RenderError).findings?.problems).toContainEqual({ type: 'ready_timeout' });
  });

  test('a timeout outside the wait has no ready_timeout problem', async () => {
    const error = await image('<script>for (;;) {}</script>', 'enabled', 2_000).catch((caught: unknown) => caught);
    expect((error as RenderError).code).toBe('render_timeout');
    expect((error as RenderError).findings?.problems).not.toContainEqual({ type: 'ready_timeout' });
  });

});
