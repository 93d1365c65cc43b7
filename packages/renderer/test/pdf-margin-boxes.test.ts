// Headers and footers from the document's own CSS (page-margin boxes), the margin rule between
// the request and the document's @page, and bookmarks from headings on request.
import { brandyFaceTtf } from './support/renamed-font.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { EffectiveViewport, PdfOptions } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

// the WOFF2 encoder the core font tests use (a dev dependency of @svc/core, loaded from there)
const { compress } = createRequire(new URL('../../core/package.json', import.meta.url))('wawoff2') as {
  compress(input: Uint8Array): Promise<Uint8Array>;
};

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport: EffectiveViewport = { width: 1280, height: 720, device_scale_factor: 1 };
const render = (html: string, pdf: PdfOptions = { format: 'A4' }) => renderer.renderPdf({ html, pdf, viewport, javascript: 'disabled' });

const chapters = (count: number) =>
  Array.from({ length: count }, (_, index) => `<h1>Chapter ${index + 1}</h1><p style="break-after: page">Body of chapter ${index + 1}</p>`).join('');

const pageText = (bytes: Buffer, page: number) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', '-', '-'], { input: bytes }).toString();

/** Where a word's first occurrence sits on page 1, in points from the top-left corner. */
function wordBox(bytes: Buffer, word: string): { x: number; y: number } {
  const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-', '-'], { input: bytes }).toString();
  const match = new RegExp(`xMin="([\\d.]+)" yMin="([\\d.]+)"[^>]*>${word}<`).exec(html);
  if (!match) throw new Error(`${word} is not on page 1`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

const MM = 72 / 25.4;

/** qpdf's answer about a file (it reads only files, never a pipe). */
function qpdf(bytes: Buffer, args: string[]): string {
  const directory = mkdtempSync(join(tmpdir(), 'margin-boxes-test-'));
  try {
    writeFileSync(join(directory, 'in.pdf'), bytes);
    return execFileSync('qpdf', [...args, join(directory, 'in.pdf')]).toString();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

test('an @bottom-center box numbers every page: "Page N of M"', async () => {
  const html = `<style>@page { margin: 20mm; @bottom-center { content: "Page " counter(page) " of " counter(pages) } }</style>${chapters(12)}`;
  const output = await render(html);
  expect(output.pageCount).toBe(12);
  for (let page = 1; page <= 12; page += 1) {
    const text = pageText(output.bytes, page);
    expect(text).toContain(`Chapter ${page}`);
    expect(text).toContain(`Page ${page} of 12`);
  }
});

test("the document's @page margins win over the request's, side by side; unset sides take the request's", async () => {
  const body = '<p style="margin:0">Marker</p>';
  const oneInch = { top: '1in', right: '1in', bottom: '1in', left: '1in' };
  // no @page margin: the request's margins
  expect(wordBox((await render(`<style>body{margin:0}</style>${body}`, { format: 'A4', margins: oneInch })).bytes, 'Marker').y).toBeCloseTo(72, 0);
  // @page margin: the document's, whatever the request says
  const documentMargin = `<style>body{margin:0} @page { margin: 20mm }</style>${body}`;
  for (const margins of [oneInch, { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' }]) {
    const box = wordBox((await render(documentMargin, { format: 'A4', margins })).bytes, 'Marker');
    expect(box.y).toBeCloseTo(20 * MM, 0);
    expect(box.x).toBeCloseTo(20 * MM, 0);
  }
  // only the top set by the document: the left is the request's
  const box = wordBox((await render(`<style>body{margin:0} @page { margin-top: 30mm }</style>${body}`, { format: 'A4', margins: oneInch })).bytes, 'Marker');
  expect(box.y).toBeCloseTo(30 * MM, 0);
  expect(box.x).toBeCloseTo(72, 0);
});

test("the request's page size wins over an @page size, and the page boxes stay exact", async () => {
  const output = await render(`<style>@page { size: A5; margin: 10mm; @bottom-center { content: "Page " counter(page) } }</style>${chapters(2)}`, { format: 'A4' });
  const info = execFileSync('pdfinfo', ['-'], { input: output.bytes }).toString();
  expect(info).toMatch(/Page size:\s+595\.2\d* x 841\.8\d* pts/);
  expect(pageText(output.bytes, 2)).toContain('Page 2');
});

test('a margin box set in a WOFF2 web font embeds that face', async () => {
  const ttf = await brandyFaceTtf();
  const woff2 = Buffer.from(await compress(ttf)).toString('base64');
  const html = `<style>
    @font-face { font-family: "Brand Web"; src: url(data:font/woff2;base64,${woff2}) format("woff2") }
    body { font-family: "DejaVu Serif" }
    @page { margin: 20mm; @bottom-right { content: "Page " counter(page) " of " counter(pages); font-family: "Brand Web"; color: #c0392b } }
  </style>${chapters(2)}`;
  const output = await render(html);
  expect(pageText(output.bytes, 2)).toContain('Page 2 of 2');
  const fonts = execFileSync('pdffonts', ['-'], { input: output.bytes }).toString();
  const brand = fonts.split('\n').find((line) => /\+BrandyFaceMono\b/.test(line));
  expect(brand, fonts).toBeDefined();
  // embedded (emb yes), subset
  expect(brand).toMatch(/\s+yes\s+yes\s+/);
});

test('bookmarks from the headings when the document asks for them, none otherwise; the PDF stays tagged', async () => {
  const outlineOf = (bytes: Buffer) => JSON.parse(qpdf(bytes, ['--json', '--json-key=outlines'])).outlines as { title: string }[];
  const asked = await render(`<meta name="svc-pdf-outline" content="headings">${chapters(3)}`);
  expect(outlineOf(asked.bytes).map((entry) => entry.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
  expect(spawnSync('pdfinfo', ['-'], { input: asked.bytes }).stdout.toString()).toMatch(/Tagged:\s+yes/);
  const plain = await render(chapters(3));
  expect(outlineOf(plain.bytes)).toEqual([]);
});
