// Paged media on request: a document with <meta name="svc-paged" content="on"> is laid out into
// pages by Paged.js before printing, so what Chromium's printer lacks (target-counter,
// string-set, running elements, footnotes, :blank pages) is in the PDF. Read from the PDF.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EffectiveViewport, PdfOptions, RenderError, RenderOutput } from '@svc/contracts';
import { Renderer } from '../src/index.ts';
import { BOOK_TITLE, pagedBook, pagesOf, readBook } from './support/paged-book.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport: EffectiveViewport = { width: 1280, height: 720, device_scale_factor: 1 };
const render = (html: string, options: { pdf?: PdfOptions; javascript?: 'enabled' | 'disabled'; timeoutMs?: number } = {}) =>
  renderer.renderPdf({ html, pdf: options.pdf ?? { format: 'A4' }, viewport, javascript: options.javascript ?? 'disabled', timeoutMs: options.timeoutMs });

const allText = (bytes: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();
const pageSizes = (bytes: Buffer, pageCount: number) =>
  [...execFileSync('pdfinfo', ['-f', '1', '-l', String(pageCount), '-'], { input: bytes }).toString().matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((match) => [
    Math.round(Number(match[1])),
    Math.round(Number(match[2])),
  ]);

const A4 = [595, 842];

describe('a book that opts in, with script off', () => {
  const { html, manifest } = pagedBook();
  let output: RenderOutput;
  let book: ReturnType<typeof readBook>;

  beforeAll(async () => {
    output = await render(html);
    const { layout, raw } = pagesOf(output.bytes, output.pageCount!);
    book = readBook(layout, raw, manifest);
  }, 180_000);

  test('its contents, running heads, footnotes, references and text are all right, page by page', () => {
    expect(book.problems).toEqual([]);
    // the chapters start on right-hand (odd) pages, with a blank page before each where needed
    expect(book.starts.map((pages) => pages.length)).toEqual([1, 1, 1, 1, 1, 1]);
    for (const [start] of book.starts) expect(start! % 2).toBe(1);
    expect(book.blank.length).toBeGreaterThan(0);
    expect(book.headed + book.blank.length).toBe(output.pageCount! - book.contentsPage);
  });

  test('its report says what the layout did: pages, footnotes placed, references resolved, none unresolved', () => {
    // the contents' 18 links, one cross-reference a chapter, and a target-text and a
    // target-counter in each chapter but the first
    const references = 6 * 3 + manifest.references.length + 2 * (manifest.titles.length - 1);
    expect(output.findings.paged).toEqual({ pages: 37, footnotes: manifest.footnotes.length, references, unresolved: 0 });
    expect(output.pageCount).toBe(37);
    expect(manifest.footnotes.length).toBe(12);
    expect(output.findings.problems).toEqual([]);
  });

  test("its sheets are the document's @page size, whatever the request", () => {
    expect(pageSizes(output.bytes, output.pageCount!).every(([width, height]) => width === A4[0] && height === A4[1])).toBe(true);
  });

  test('the same book without the opt-in prints as Chromium prints it: no page numbers in its contents', async () => {
    const plain = await render(pagedBook({ optIn: false }).html);
    expect(plain.pageCount).not.toBe(output.pageCount);
    const { layout, raw } = pagesOf(plain.bytes, plain.pageCount!);
    const read = readBook(layout, raw, manifest);
    expect(read.contentsNumbers.every((number) => Number.isNaN(number))).toBe(true);
    // no running head: the document title is placed in the flow once, as written
    expect(allText(plain.bytes).split(BOOK_TITLE).length - 1).toBe(1);
    // and its report says the paged CSS it holds went unused
    expect(plain.findings.paged).toBeNull();
    expect(plain.findings.problems).toContainEqual({ type: 'paged_feature_without_opt_in', feature: 'string()' });
  }, 120_000);
});

/** A short opted-in document: a contents line with target-counter and three pages. */
const shortBook = (extra = '', style = '') => `<!doctype html><html><head>
<meta name="svc-paged" content="on">
<style>@page { size: A5; margin: 15mm; @bottom-center { content: "folio " counter(page); } }
a.ref::after { content: " on page " target-counter(attr(href), page); }
section { break-before: page; } ${style}</style></head><body>
<p><a class="ref" href="#third">Third part</a></p>
<section><h1>Second part</h1></section>
<section id="third"><h1>Third part</h1>${extra}</section>
</body></html>`;

const A5 = [420, 595];

test("an opted-in document's own script stays off: it leaves no trace in the pages", async () => {
  const output = await render(shortBook('<script>document.body.insertAdjacentText("beforeend", "WRITTEN-BY-SCRIPT")</script>'));
  const text = allText(output.bytes);
  expect(output.pageCount).toBe(3);
  expect(text).toContain('Third part on page 3');
  expect(text).not.toContain('WRITTEN-BY-SCRIPT');
});

test('with script on, the pages are made once the script has run', async () => {
  const output = await render(shortBook('<p id="late"></p><script>document.getElementById("late").textContent = "WRITTEN-BY-SCRIPT"</script>'), { javascript: 'enabled' });
  expect(output.pageCount).toBe(3);
  const third = execFileSync('pdftotext', ['-f', '3', '-l', '3', '-layout', '-', '-'], { input: output.bytes }).toString();
  expect(third).toContain('WRITTEN-BY-SCRIPT');
  expect(allText(output.bytes)).toContain('Third part on page 3');
});

test("the document's @page rules win over the request's paper, margins, scale and header/footer templates", async () => {
  const output = await render(shortBook(), {
    pdf: {
      format: 'Letter',
      landscape: true,
      scale: 0.5,
      margins: { top: '40mm', right: '40mm', bottom: '40mm', left: '40mm' },
      display_header_footer: true,
      header_template: '<span style="font-size:10px">REQUESTED-HEADER</span>',
      footer_template: '<span style="font-size:10px">REQUESTED-FOOTER</span>',
    },
  });
  expect(output.pageCount).toBe(3);
  expect(pageSizes(output.bytes, 3)).toEqual([A5, A5, A5]);
  const text = allText(output.bytes);
  expect(text).not.toContain('REQUESTED-');
  for (const page of [1, 2, 3]) expect(text).toContain(`folio ${page}`);
});

test('the job deadline ends a paged layout that outlasts it, and the next render is served', async () => {
  // a long book whose layout takes seconds
  const long = pagedBook({ paragraphsPerChapter: 120 }).html;
  const error = await render(long, { timeoutMs: 1_000 }).catch((caught: unknown) => caught);
  expect((error as RenderError).code).toBe('render_timeout');
  const next = await render(shortBook());
  expect(next.pageCount).toBe(3);
}, 120_000);

test('a reference to a target the document does not hold is reported unresolved, naming its element', async () => {
  const output = await render(shortBook('<p><a id="stray" class="ref" href="#missing">Nowhere</a></p>'));
  expect(output.pageCount).toBe(3);
  expect(output.findings.paged).toEqual({ pages: 3, footnotes: 0, references: 1, unresolved: 1 });
  expect(output.findings.problems).toEqual([{ type: 'unresolved_reference', selector: '#stray', target: '#missing' }]);
  // what the page shows for it
  expect(allText(output.bytes)).toContain('Nowhere on page 0');
});

describe('paged-only CSS in a document that does not opt in', () => {
  const plain = (style: string) => `<!doctype html><html><head><style>${style}</style></head><body><h1>Title</h1><p>Text.</p></body></html>`;

  test('string-set without the opt-in is a problem that names it', async () => {
    const output = await render(plain('h1 { string-set: title content(text); }'));
    expect(output.findings.paged).toBeNull();
    expect(output.findings.problems).toEqual([{ type: 'paged_feature_without_opt_in', feature: 'string-set' }]);
  });

  test('a document with none of it has no such problem, and script text is not taken for CSS', async () => {
    const output = await render(
      `${plain('h1 { float: left; }').replace('</body>', '<script>String(document.createElement("p"))</script></body>')}`,
      { javascript: 'enabled' },
    );
    expect(output.findings.paged).toBeNull();
    expect(output.findings.problems).toEqual([]);
  });
});
