// Canvas pages: finding them in HTML text (request admission, no browser) and printing a
// chosen subset in a chosen order, one canvas page per PDF page.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findCanvasPages, Renderer, RenderError } from '../src/index.ts';

describe('findCanvasPages', () => {
  test('ids and names in document order', () => {
    const html = `<main>
      <section data-svc-page="cover" data-svc-page-name="Cover">a</section>
      <div><article data-svc-page='inner-1'>b</article></div>
      <section DATA-SVC-PAGE=back data-svc-page-name="Back &amp; end">c</section>
    </main>`;
    expect(findCanvasPages(html)).toEqual([
      { id: 'cover', name: 'Cover' },
      { id: 'inner-1', name: null },
      { id: 'back', name: 'Back & end' },
    ]);
  });

  test('what the DOM would not contain is not a page', () => {
    const html = [
      '<!-- <div data-svc-page="commented"></div> -->',
      '<script>const s = \'<div data-svc-page="in-script"></div>\'</script>',
      '<style>/* <div data-svc-page="in-style"> */</style>',
      '<textarea><div data-svc-page="in-textarea"></div></textarea>',
      '<template><div data-svc-page="in-template"></div></template>',
      '<div data-page="not-ours" title=\'data-svc-page="in-attribute"\'></div>',
      '<!--><div data-svc-page="after-empty-comment"></div>',
      '<div data-svc-page="real"></div>',
    ].join('\n');
    expect(findCanvasPages(html).map((page) => page.id)).toEqual(['after-empty-comment', 'real']);
  });

  test('the first of repeated attributes wins, entities are decoded, odd spacing is fine', () => {
    const html = '<div\n  data-svc-page = "first"\tdata-svc-page="second" data-svc-page-name=Plain></div><p data-svc-page="a&#45;b&#x5f;c">';
    expect(findCanvasPages(html)).toEqual([
      { id: 'first', name: 'Plain' },
      { id: 'a-b_c', name: null },
    ]);
  });

  test('no pages, unterminated markup', () => {
    expect(findCanvasPages('<p>plain</p>')).toEqual([]);
    expect(findCanvasPages('<div data-svc-page="x"')).toEqual([{ id: 'x', name: null }]);
    expect(findCanvasPages('<script>never closed <div data-svc-page="y">')).toEqual([]);
  });
});

describe('printing chosen pages', () => {
  let renderer: Renderer;

  beforeAll(async () => {
    renderer = await Renderer.start({ concurrency: 2 });
  });

  afterAll(async () => {
    await renderer?.close();
  });

  // canvas pages styled by their ancestors, with content outside them that must not print
  const DECK = `<style>.deck > section { height: 200px; border: 2px solid #000; font: 24px sans-serif }</style>
    <h1>Not a page</h1>
    <div class="deck">
      <section data-svc-page="alpha">Canvas Alpha</section>
      <section data-svc-page="beta">Canvas Beta</section>
      <section data-svc-page="gamma">Canvas Gamma</section>
    </div>
    <footer>Also not a page</footer>`;

  const render = (pages?: string[], html = DECK) =>
    renderer.renderPdf({ html, pdf: { format: 'A5' }, viewport: { width: 1280, height: 720, device_scale_factor: 1 }, javascript: 'disabled', pages });

  const pageText = (bytes: Buffer, page: number) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-', '-'], { input: bytes }).toString().trim();

  test('without pages the document prints as it is', async () => {
    const output = await render();
    expect(output.pageCount).toBe(1);
    expect(pageText(output.bytes, 1)).toContain('Not a page');
  });

  test('chosen pages only, in the requested order, one per PDF page', async () => {
    const output = await render(['gamma', 'alpha']);
    expect(output.pageCount).toBe(2);
    expect(pageText(output.bytes, 1)).toBe('Canvas Gamma');
    expect(pageText(output.bytes, 2)).toBe('Canvas Alpha');
  });

  test('all pages in a shuffled order', async () => {
    const output = await render(['beta', 'gamma', 'alpha']);
    expect([1, 2, 3].map((page) => pageText(output.bytes, page))).toEqual(['Canvas Beta', 'Canvas Gamma', 'Canvas Alpha']);
  });

  test('unknown and duplicate page ids are refused as invalid_input', async () => {
    const unknown = await render(['alpha', 'delta']).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(RenderError);
    expect([(unknown as RenderError).category, (unknown as RenderError).code]).toEqual(['invalid_input', 'unknown_page']);
    const duplicate = await render(['alpha', 'alpha']).catch((error: unknown) => error);
    expect([(duplicate as RenderError).category, (duplicate as RenderError).code]).toEqual(['invalid_input', 'duplicate_page']);
  });
});
