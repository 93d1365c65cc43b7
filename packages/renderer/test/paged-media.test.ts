// Paged media on request: a document with <meta name="svc-paged" content="on"> is laid out into
// pages by Paged.js before printing, so what Chromium's printer lacks (target-counter,
// string-set, running elements, footnotes, :blank pages) is in the PDF. Read from the PDF.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EffectiveViewport, PdfOptions, RenderError, RenderOutput } from '@svc/contracts';
import { needsPagedEngine } from '../src/browser/paged-media.ts';
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

/**
 * An opted-in document whose style needs nothing only the engine lays out: margin boxes with
 * page counters, named pages, breaks. `engine` adds a rule only the engine follows (a string-set
 * on an element the document does not hold), which changes nothing on the page.
 */
const plainPaged = ({ engine = false, page = '' } = {}) => `<!doctype html><html><head>
<meta name="svc-paged" content="on">
<style>${page}
@page { @top-right { content: "Field notes"; } @bottom-center { content: "page " counter(page) " of " counter(pages); } }
@page appendix { @top-right { content: "Appendix"; } }
.appendix { page: appendix; break-before: page; }
p { font: 12pt/1.5 serif; margin: 0 0 8pt; } ${engine ? 'h6 { string-set: nothing content(text); }' : ''}</style></head><body>
${Array.from({ length: 40 }, (_, index) => `<p>Paragraph ${index + 1}. ${'The survey walked the ridge and counted what it found there. '.repeat(4)}</p>`).join('\n')}
<div class="appendix"><p>Appendix: the tally, as counted.</p></div>
</body></html>`;

describe('an opted-in document that needs nothing only the engine lays out', () => {
  test('prints as the engine would: the same pages, sizes and text, margin boxes and page counters included', async () => {
    const [native, engine] = await Promise.all([render(plainPaged()), render(plainPaged({ engine: true }))]);
    expect(native.pageCount).toBeGreaterThanOrEqual(3);
    expect(native.pageCount).toBe(engine.pageCount);
    // the engine's default page: US Letter, whatever the request asked for (A4)
    expect(pageSizes(native.bytes, native.pageCount!)).toEqual(pageSizes(engine.bytes, engine.pageCount!));
    expect(pageSizes(native.bytes, 1)).toEqual([[612, 792]]);
    const pageText = (bytes: Buffer, page: number) =>
      execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-', '-'], { input: bytes }).toString().replace(/\s+/g, ' ').trim();
    for (let page = 1; page <= native.pageCount!; page += 1) {
      const text = pageText(native.bytes, page);
      expect(text).toBe(pageText(engine.bytes, page));
      expect(text).toContain(`page ${page} of ${native.pageCount}`);
      expect(text).toContain(page === native.pageCount ? 'Appendix' : 'Field notes');
    }
    expect(native.findings.paged).toEqual({ pages: native.pageCount, footnotes: 0, references: 0, unresolved: 0 });
    expect(engine.findings.paged).toEqual({ pages: native.pageCount, footnotes: 0, references: 0, unresolved: 0 });
  }, 120_000);

  test("its @page size and margins win over the engine's defaults, as they would in the engine", async () => {
    const page = '@page { size: A5; margin: 12mm 10mm; }';
    const [native, engine] = await Promise.all([render(plainPaged({ page })), render(plainPaged({ engine: true, page }))]);
    expect(native.pageCount).toBe(engine.pageCount);
    expect(pageSizes(native.bytes, native.pageCount!).every(([width, height]) => width === A5[0] && height === A5[1])).toBe(true);
    expect(allText(native.bytes).replace(/\s+/g, ' ')).toBe(allText(engine.bytes).replace(/\s+/g, ' '));
  }, 120_000);

  test('is told from one that needs the engine by its style alone', () => {
    for (const css of [
      '@page { size: A4; margin: 20mm; @top-center { content: "Head"; } @bottom-right { content: counter(page) " / " counter(pages); } }',
      '@page chapter:first { margin-top: 40mm; } @page :left { margin-left: 30mm; } h1 { page: chapter; break-before: right; }',
      'p { widows: 3; orphans: 3; break-inside: avoid; } .pages { color: red; } .string { font-weight: bold; }',
    ]) expect(needsPagedEngine(css), css).toBe(false);
    for (const css of [
      'a::after { content: target-counter(attr(href), page); }',
      'h1 { string-set: title content(text); }',
      '@page { @top-center { content: string(title); } }',
      'header { position: running(head); }',
      '.fn { float: footnote; }',
      '@page :blank { @top-center { content: none; } }',
      '@page :nth(1) { margin-top: 0; }',
      'h1 { counter-reset: page 1; }',
      '@page { marks: crop cross; bleed: 3mm; }',
      'li::after { content: leader(dotted) target-counter(attr(href), page); }',
    ]) expect(needsPagedEngine(css), css).toBe(true);
  });

  test('a page counter reset, a :blank page or a footnote is laid out by the engine', async () => {
    const chapters = (style: string, extra = '') => `<!doctype html><html><head><meta name="svc-paged" content="on">
<style>@page { size: A5; margin: 15mm; @bottom-center { content: "folio " counter(page); } } ${style}</style></head><body>
<section><h1>One</h1><p>First chapter.${extra}</p></section><section><h1>Two</h1><p>Second chapter.</p></section></body></html>`;
    const textOf = (output: RenderOutput) => allText(output.bytes).replace(/\s+/g, ' ');
    const [restarted, blank, footnote] = await Promise.all([
      render(chapters('section { break-before: page; counter-reset: page 1; }')),
      render(chapters('section + section { break-before: right; } @page :blank { @top-center { content: "Left blank"; } }')),
      render(chapters('.note { float: footnote; }', '<span class="note">A note at the foot.</span>')),
    ]);
    // each chapter's folios start again at 1, where Chromium would count on
    expect(textOf(restarted).match(/folio \d+/g)).toEqual(['folio 1', 'folio 1']);
    // the chapter that starts on a right-hand page leaves a blank page before it, printed with its own margin box
    expect(blank.pageCount).toBe(3);
    expect(textOf(blank)).toContain('Left blank');
    expect(footnote.findings.paged).toEqual({ pages: 1, footnotes: 1, references: 0, unresolved: 0 });
  }, 120_000);

  test('a linked style sheet is read by the engine, which follows what it asks for', async () => {
    const sheet = `data:text/css,${encodeURIComponent('a.ref::after { content: " on page " target-counter(attr(href), page); } section { break-before: page; }')}`;
    const output = await render(`<!doctype html><html><head><meta name="svc-paged" content="on"><link rel="stylesheet" href="${sheet}">
<style>@page { size: A5; margin: 15mm; }</style></head><body><p><a class="ref" href="#second">Second part</a></p><section id="second"><h1>Second part</h1></section></body></html>`);
    expect(output.pageCount).toBe(2);
    expect(allText(output.bytes)).toContain('Second part on page 2');
    expect(output.findings.paged).toEqual({ pages: 2, footnotes: 0, references: 1, unresolved: 0 });
  }, 120_000);
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
