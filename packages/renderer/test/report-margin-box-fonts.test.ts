// The render report's fonts list names the faces the page-margin boxes drew: the printer draws
// them from the document's @page rules, they are no elements, so the faces are read from the
// printed file. A document without margin boxes lists what its elements drew, as before.
import { brandyFaceTtf } from './support/renamed-font.ts';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AssetResolver, EffectiveViewport, RenderOutput } from '@svc/contracts';
import { Renderer } from '../src/index.ts';
import { streamObject } from '../src/report/pdf-streams.ts';
import { sfntFamilyName } from '../src/report/sfnt-family.ts';

// the WOFF2 encoder the core font tests use (a dev dependency of @svc/core, loaded from there)
const { compress } = createRequire(new URL('../../core/package.json', import.meta.url))('wawoff2') as {
  compress(input: Uint8Array): Promise<Uint8Array>;
};

let renderer: Renderer;
let brandTtf: Buffer;
let brandWoff2: Buffer;

beforeAll(async () => {
  brandTtf = await brandyFaceTtf();
  brandWoff2 = Buffer.from(await compress(brandTtf));
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport: EffectiveViewport = { width: 1280, height: 720, device_scale_factor: 1 };
const pdf = (html: string, assets?: AssetResolver) => renderer.renderPdf({ html, pdf: { format: 'A4' }, viewport, javascript: 'disabled', assets });

const brandFontFace = (src = `data:font/woff2;base64,${brandWoff2.toString('base64')}`) => `@font-face { font-family: "Brand Web"; src: url(${src}) format("woff2") }`;
const pages = '<p style="break-after: page">First page</p><p>Second page</p>';
const footer = '@page { margin: 20mm; @bottom-center { content: "Page " counter(page) " of " counter(pages); font-family: "Brand Web" } }';

/** pdffonts' line of a face, by its PostScript name after the subset tag. */
function pdffontsLine(output: RenderOutput, face: string): string | undefined {
  const listing = execFileSync('pdffonts', ['-'], { input: output.bytes }).toString();
  return listing.split('\n').find((line) => new RegExp(`^[A-Z]{6}\\+${face}\\s`).test(line));
}

test("a font's name table says its family as Chromium reports it: the family name (1) before the typographic one (16)", async () => {
  expect(sfntFamilyName(brandTtf)).toBe('Brandy Face Mono');
  expect(sfntFamilyName(await readFile('/usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf'))).toBe('DejaVu Sans Light');
  expect(sfntFamilyName(await readFile('/usr/share/fonts/opentype/inter/Inter-ThinItalic.otf'))).toBe('Inter Thin');
  expect(sfntFamilyName(Buffer.from('not a font'))).toBeNull();
});

test('a stream object is found by its own number and cut by its direct length; an indirect length is not read', () => {
  const file = '%PDF-1.4\n15 0 obj\n<</Length 3>> stream\nabc\nendstream\nendobj\n5 0 obj\n<</Filter /FlateDecode\n/Length 4>> stream\nwxyz\nendstream\nendobj\n7 0 obj\n<</Length 12 0 R>> stream\nabc\nendstream\nendobj\n';
  const bytes = Buffer.from(file, 'latin1');
  expect(streamObject(bytes, file, 5)).toEqual({ dictionary: '/Filter /FlateDecode\n/Length 4', data: Buffer.from('wxyz') });
  expect(streamObject(bytes, file, 15)?.data.toString()).toBe('abc');
  expect(streamObject(bytes, file, 7)).toBeNull();
  expect(streamObject(bytes, file, 8)).toBeNull();
});

test('a web font used only in @page @bottom-center is embedded and listed, named as its file names it', async () => {
  const output = await pdf(`<style>${brandFontFace()} body { font-family: "DejaVu Serif" } ${footer}</style>${pages}`);
  expect(execFileSync('pdftotext', ['-f', '2', '-l', '2', '-', '-'], { input: output.bytes }).toString()).toContain('Page 2 of 2');
  // embedded, subset
  expect(pdffontsLine(output, 'BrandyFaceMono')).toMatch(/\s+yes\s+yes\s+/);
  expect(output.findings.fonts).toContainEqual({ family: 'Brandy Face Mono', face: 'BrandyFaceMono', source: 'document', embedded: true, glyphs: null });
  // the body's face is still the page's answer, with its glyph count
  expect(output.findings.fonts).toContainEqual({ family: 'DejaVu Serif', face: 'DejaVuSerif', source: 'system', embedded: true, glyphs: expect.any(Number) });
  expect(output.findings.fonts).toHaveLength(2);
});

test('a brand kit font used only in a margin box is a brand_kit face', async () => {
  const reference = 'asset://asset_0123456789abcdef0123456789abcdef';
  const assets: AssetResolver = async (url) => (url === reference ? { bytes: brandWoff2, mediaType: 'font/woff2', fontFamily: 'Brandy Face Mono' } : null);
  const output = await pdf(`<style>${brandFontFace(reference)} body { font-family: "DejaVu Serif" } ${footer}</style>${pages}`, assets);
  expect(pdffontsLine(output, 'BrandyFaceMono')).toBeDefined();
  expect(output.findings.fonts).toContainEqual({ family: 'Brandy Face Mono', face: 'BrandyFaceMono', source: 'brand_kit', embedded: true, glyphs: null });
});

test('a face that draws both the body and a margin box is listed once, from the page', async () => {
  const output = await pdf(`<style>${brandFontFace()} body { font-family: "Brand Web" } ${footer}</style>${pages}`);
  const brand = output.findings.fonts.filter((font) => font.face === 'BrandyFaceMono');
  expect(brand).toEqual([{ family: 'Brandy Face Mono', face: 'BrandyFaceMono', source: 'document', embedded: true, glyphs: expect.any(Number) }]);
});

test('a document without margin boxes lists exactly the faces its elements drew', async () => {
  const html = `<style>${brandFontFace()} body { font-family: "DejaVu Serif" } @page { margin: 20mm }</style><h1 style="font-family: 'Brand Web'">Brand heading</h1>${pages}`;
  const output = await pdf(html);
  expect(output.findings.fonts).toEqual([
    { family: 'DejaVu Serif', face: 'DejaVuSerif', source: 'system', embedded: true, glyphs: expect.any(Number) },
    { family: 'Brandy Face Mono', face: 'BrandyFaceMono', source: 'document', embedded: true, glyphs: expect.any(Number) },
  ]);
  // the same faces an image of the document lists
  const image = await renderer.renderImage({ html, image: { format: 'png', width: 640, height: 480 }, javascript: 'disabled' });
  expect(image.findings.fonts.map((font) => font.face).sort()).toEqual(output.findings.fonts.map((font) => font.face).sort());
});

test("a face used only in the PDF's header template is listed as well", async () => {
  const header = '<div style="font-family: \'DejaVu Sans Mono\'; font-size: 10px; width: 100%; text-align: center">Quarterly report</div>';
  const output = await renderer.renderPdf({
    html: `<style>${brandFontFace()} body { font-family: "Brand Web" } @page { margin: 20mm }</style>${pages}`,
    pdf: { format: 'A4', display_header_footer: true, header_template: header, footer_template: '<span></span>' },
    viewport,
    javascript: 'disabled',
  });
  expect(execFileSync('pdftotext', ['-l', '1', '-', '-'], { input: output.bytes }).toString()).toContain('Quarterly report');
  expect(pdffontsLine(output, 'DejaVuSansMono')).toBeDefined();
  expect(output.findings.fonts.map((font) => font.face).sort()).toEqual(['BrandyFaceMono', 'DejaVuSansMono']);
});

