// Canvas pages: printing a chosen subset in a chosen order, one canvas page per PDF page
// (finding them in HTML text is @svc/templating's canvas-pages test).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RenderError } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

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
