// POST /v1/templates/adapt (the saved template routes; docs/decisions/adapt.md): canvases laid out in
// the worker's browser, adapted sources rendered and measured like any render.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';
import { adaptCanvases, adaptSizes, measurePages } from './support/canvases.ts';
import { imageInfo, pdfText, renderOk } from './support/files.ts';
import { png, upload } from './support/images.ts';
import { securitySuite } from './support/security.ts';

const adapt = (key: string, body: unknown) => api('/v1/templates/adapt', { method: 'POST', key, body });

/** Appends a script that measures the pages in the rendering browser and prints one line per page. */
const withMeasurement = (source: string) =>
  source.replace(
    '</body>',
    `<script>window.addEventListener('load', () => {
      const out = document.createElement('pre');
      out.textContent = (${measurePages}).map((page) => 'measured ' + page.id + ' ' + Math.round(page.width) + 'x' + Math.round(page.height) + ' outside ' + page.outside.length).join('\\n');
      document.body.append(out);
    });</script></body>`,
  );

const words = (text: string) => text.split(/\s+/).filter(Boolean);

async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.round(y) * info.width + Math.round(x)) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

describe('POST /v1/templates/adapt', () => {
  for (const [kind, source] of Object.entries(adaptCanvases)) {
    it(`adapts a ${kind} canvas: each size renders at its size, keeps every page's text, and no text leaves its page`, async () => {
      const account = await newAccount();
      const response = await adapt(account.apiKey, { source, sizes: adaptSizes });
      expect(response.status).toBe(200);
      expect(response.body.sizes.map((entry: { width: number; height: number }) => [entry.width, entry.height])).toEqual(adaptSizes.map((size) => [size.width, size.height]));
      const pageIds = [...source.matchAll(/data-svc-page="([^"]+)"/g)].map((match) => match[1]!);
      const originalText = words(pdfText((await renderOk('pdf', account.apiKey, { html: source, viewport: { width: 1080, height: 1080 } })).file.bytes));
      for (const [index, entry] of response.body.sizes.entries()) {
        const { width, height } = adaptSizes[index]!;
        expect(entry.error).toBeUndefined();
        expect(entry.source).toContain(`content="${width}x${height}"`);
        const image = await renderOk('image', account.apiKey, { html: entry.source, image: { format: 'png', width, height } });
        expect(await imageInfo(image.file.bytes)).toMatchObject({ width, height });
        // the rendering browser measures the adapted pages; the PDF carries its findings and the text
        const measured = await renderOk('pdf', account.apiKey, {
          html: withMeasurement(entry.source),
          javascript: { mode: 'enabled' },
          viewport: { width, height },
          pdf: { width: `${width}px`, height: `${height}px`, margins: { top: '0px', right: '0px', bottom: '0px', left: '0px' } },
        });
        const text = pdfText(measured.file.bytes);
        for (const id of pageIds) expect(text).toContain(`measured ${id} ${width}x${height} outside 0`);
        const adaptedWords = words(text);
        expect(originalText.filter((word) => !adaptedWords.includes(word))).toEqual([]);
      }
    });
  }

  it('moves positioned elements by their anchors; answers the same request identically; saves and spends nothing', async () => {
    const account = await newAccount({ credits: 5 });
    const body = { source: adaptCanvases.positioned, sizes: adaptSizes };
    const response = await adapt(account.apiKey, body);
    expect((await adapt(account.apiKey, body)).body).toEqual(response.body);
    expect(await serviceDb().adaptRequest.count()).toBe(0);
    expect(await serviceDb().renderJob.count({ where: { accountId: account.accountId } })).toBe(0);
    const balance = await serviceDb().creditBalance.findFirst({ where: { accountId: account.accountId, bucket: 'trial' } });
    expect(balance?.balance).toBe(5);
    const wide = response.body.sizes[1];
    const { file } = await renderOk('image', account.apiKey, { html: wide.source, image: { format: 'png', width: 1920, height: 1080 } });
    expect(await pixel(file.bytes, 1915, 5)).toEqual([0, 255, 0]);
    expect(await pixel(file.bytes, 50, 210)).toEqual([255, 0, 0]);
    expect(await pixel(file.bytes, 1870, 1030)).toEqual([0, 0, 255]);
  });

  it('lays the source out in the caller sandbox: its own assets load, another account asset or a URL does not', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const asset = (await upload(owner.apiKey, await png(300, 200), 'image/png')).body.id as string;
    const canvas = (src: string) =>
      `<meta name="svc-canvas" content="800x600"><div data-svc-page="a" style="width: 800px; height: 600px"><h1>Logo</h1><img src="${src}"></div>`;
    const own = await adapt(owner.apiKey, { source: canvas(`asset://${asset}`), sizes: [{ width: 600, height: 800 }] });
    expect(own.body.sizes[0].source).toContain(`asset://${asset}`);
    const foreign = await adapt(other.apiKey, { source: canvas(`asset://${asset}`), sizes: [{ width: 600, height: 800 }] });
    expect(foreign.body.sizes).toEqual([{ width: 600, height: 800, error: { code: 'resize_source_unsupported' } }]);
    const remote = await adapt(other.apiKey, { source: canvas('https://example.com/logo.png'), sizes: [{ width: 600, height: 800 }] });
    expect(remote.body.sizes).toEqual([{ width: 600, height: 800, error: { code: 'resize_source_unsupported' } }]);
  });

  it('answers resize_source_unsupported without a canvas meta, resize_no_layout with nothing laid out', async () => {
    const account = await newAccount();
    const plain = await adapt(account.apiKey, { source: '<p>{{ x }}</p>', sizes: [{ width: 400, height: 400 }, { width: 800, height: 400 }] });
    expect(plain.body.sizes).toEqual([
      { width: 400, height: 400, error: { code: 'resize_source_unsupported' } },
      { width: 800, height: 400, error: { code: 'resize_source_unsupported' } },
    ]);
    const empty = await adapt(account.apiKey, { source: '<meta name="svc-canvas" content="800x600"><p>no page</p>', sizes: [{ width: 400, height: 400 }] });
    expect(empty.body.sizes).toEqual([{ width: 400, height: 400, error: { code: 'resize_no_layout' } }]);
  });

  it('answers 504 resize_timeout past its work bound, and 400 for bad sizes', async () => {
    const account = await newAccount();
    const huge = `<meta name="svc-canvas" content="800x600">${'<i></i>'.repeat(20_001)}`;
    expectError(await adapt(account.apiKey, { source: huge, sizes: [{ width: 400, height: 400 }] }), 504, 'resize_timeout');
    const source = adaptCanvases.flow;
    const cases: [unknown, string][] = [
      [{ source, sizes: Array.from({ length: 21 }, () => ({ width: 400, height: 400 })) }, 'sizes'],
      [{ source, sizes: [{ width: 319, height: 400 }] }, 'sizes.0.width'],
      [{ source, sizes: [{ width: 400, height: 4321 }] }, 'sizes.0.height'],
      [{ source }, 'sizes'],
    ];
    for (const [body, field] of cases) {
      expect(expectError(await adapt(account.apiKey, body), 400, 'invalid_request').details?.[0]?.field).toBe(field);
    }
  });
});

securitySuite('POST /v1/templates/adapt', { method: 'POST', path: () => '/v1/templates/adapt', body: { source: 'x', sizes: [{ width: 400, height: 400 }] } });
