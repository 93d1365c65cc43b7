// The renderer's part of the render report: each problem a document can have produces exactly
// its entry, on a finished render and on a failed one, and a clean document produces none.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AssetResolver, type PdfOptions, type RenderFindings, RenderError, type RenderOutput } from '@svc/contracts';
import { viewportDefaults } from '@svc/rules';
import { Renderer } from '../src/index.ts';
import { printableWidthPx, resolveGeometry } from '../src/pdf/page-size.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const A4: PdfOptions = { format: 'A4' };
const pdf = (html: string, javascript: 'enabled' | 'disabled' = 'disabled', assets?: AssetResolver) =>
  renderer.renderPdf({ html, pdf: A4, viewport: { ...viewportDefaults }, javascript, assets });
const image = (html: string, width = 640, height = 360) => renderer.renderImage({ html, image: { format: 'png', width, height }, javascript: 'disabled' });

/** The findings a failed render hands over with its error. */
async function failedFindings(render: Promise<RenderOutput>): Promise<{ error: RenderError; findings: RenderFindings }> {
  const error = await render.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RenderError);
  const findings = (error as RenderError).findings;
  expect(findings).toBeDefined();
  return { error: error as RenderError, findings: findings! };
}

const fontBytes = readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
const fontDataUrl = `data:font/ttf;base64,${fontBytes.toString('base64')}`;

test('a clean document has no problems, as a PDF and as an image', async () => {
  const html = '<h1>Invoice 42</h1><p>Total: 1,234.50 EUR</p><div style="width:100%;background:#eee">full width</div>';
  const [printed, captured] = await Promise.all([pdf(html), image(html)]);
  expect(printed.findings.problems).toEqual([]);
  expect(printed.findings.omitted).toBe(0);
  expect(captured.findings.problems).toEqual([]);
  expect(printed.findings.script).toEqual({ script_elements: 0, event_handlers: 0 });
});

test('a character no font draws is a missing glyph, with its code point, count and first place', async () => {
  // U+0378 is unassigned: no font has it
  const output = await image('<p>Plain text</p><p id="price">Price \u0378 here and \u0378 there</p>');
  expect(output.findings.problems).toEqual([
    { type: 'missing_glyph', code_point: 'U+0378', character: '\u0378', count: 2, selector: '#price', context: 'Price \u0378 here and \u0378 there' },
  ]);
});

test('a blocked request is on the failed render error, with the URL as written and its rule', async () => {
  const { error, findings } = await failedFindings(image('<p>Logo</p><img src="https://example.com/logo.png?size=2">'));
  expect(error.category).toBe('unsafe_asset');
  expect(findings.problems).toContainEqual({ type: 'resource_blocked', url: 'https://example.com/logo.png?size=2', rule: 'network', resource_type: 'image' });
  expect(findings.problems.every((problem) => problem.type === 'resource_blocked')).toBe(true);
});

test('a local file and a resource hint are blocked by their own rules', async () => {
  const { findings } = await failedFindings(image('<img src="file:///etc/hostname">'));
  expect(findings.problems).toContainEqual(expect.objectContaining({ type: 'resource_blocked', url: 'file:///etc/hostname', rule: 'local_file' }));
  const hinted = await failedFindings(image('<link rel="preconnect" href="https://fonts.example.com"><p>Text</p>'));
  expect(hinted.findings.problems).toEqual([{ type: 'resource_blocked', url: 'https://fonts.example.com', rule: 'resource_hint', resource_type: 'preconnect' }]);
  // the audit reads the document in the service's own world: page script that replaces the DOM's functions hides nothing
  const hidden = await failedFindings(
    pdf(
      `<link rel="next" href="https://cdn.example.com/next.html"><script>Element.prototype.getAttribute = () => 'canonical';
      Document.prototype.querySelectorAll = () => []; Document.prototype.querySelector = () => null</script><p>Text</p>`,
      'enabled',
    ),
  );
  expect(hidden.findings.problems).toContainEqual({ type: 'resource_blocked', url: 'https://cdn.example.com/next.html', rule: 'resource_hint', resource_type: 'next' });
});

test('an asset the job does not have fails the render as before and is reported by its asset:// reference', async () => {
  const reference = 'asset://asset_00000000000000000000000000000000';
  const { error, findings } = await failedFindings(pdf(`<img src="${reference}">`, 'disabled', async () => null));
  expect([error.category, error.code]).toEqual(['unsafe_asset', 'unknown_asset']);
  expect(findings.problems).toEqual([{ type: 'resource_failed', url: reference, reason: 'asset_not_found', resource_type: 'image' }]);
});

test('an image that does not decode and a web font that does not load are failed resources', async () => {
  const output = await image(
    '<style>@font-face { font-family: Broken; src: url(data:font/ttf;base64,AAAA) }</style>' +
      '<p style="font-family: Broken, sans-serif">Text</p><img src="data:image/png;base64,AAAA">',
  );
  expect(output.findings.problems).toEqual([
    { type: 'resource_failed', url: 'data:image/png;base64,AAAA', reason: 'image_not_decoded', resource_type: 'image' },
    { type: 'resource_failed', url: 'data:font/ttf;base64,AAAA', reason: 'font_not_loaded', resource_type: 'font' },
  ]);
});

test('text cut off by its box is clipped content', async () => {
  const output = await image('<div id="label" style="width:100px;height:20px;overflow:hidden;white-space:nowrap">A label much longer than its box</div>');
  expect(output.findings.problems).toHaveLength(1);
  const problem = output.findings.problems[0]!;
  expect(problem).toMatchObject({ type: 'clipped_content', selector: '#label', context: 'A label much longer than its box', box: { width: 100, height: 20 } });
  expect(problem.type === 'clipped_content' && problem.content.width).toBeGreaterThan(100);
});

test('a box clips whether its overflow comes from a rule, a rule in a media or layer block, its style attribute or a nested rule', async () => {
  const cut = (id: string, extra = '') => `<div id="${id}" class="${id}" ${extra}>A label much longer than its box</div>`;
  const box = 'width:100px;height:20px;white-space:nowrap';
  const sheets =
    `<style>div { ${box} } .ruled { overflow: hidden } @media print, screen { @layer boxes { .layered { overflow-x: clip } } }</style>` +
    cut('ruled') + cut('layered') + cut('inline', 'style="overflow:hidden"') + '<p>Other text that fits</p>';
  const nested = `<style>div { ${box} } section { & .nested { overflow: hidden } }</style><section>${cut('nested')}</section>`;
  for (const [html, ids] of [[sheets, ['#ruled', '#layered', '#inline']], [nested, ['#nested']]] as const) {
    const [printed, captured] = await Promise.all([pdf(html), image(html)]);
    for (const output of [printed, captured]) {
      expect(output.findings.problems.map((problem) => problem.type === 'clipped_content' && problem.selector)).toEqual(ids);
    }
  }
});

test('the boxes of a PDF are measured at its printable width: a box as wide as the page that clips only there', async () => {
  // at the viewport's width (1280) the label fits its box; at the printable width it does not
  const output = await pdf('<div id="label" style="width:100%;height:20px;overflow:hidden"><span style="display:inline-block;width:1000px">Label</span></div>');
  expect(output.findings.problems).toEqual([expect.objectContaining({ type: 'clipped_content', selector: '#label' })]);
});

test('a positioned element past the right edge of a PDF page is wider than the page', async () => {
  const output = await pdf('<p>Text</p><div id="badge" style="position:absolute;top:10px;left:700px;width:300px">Badge</div>');
  expect(output.findings.problems).toEqual([{ type: 'wider_than_page', selector: '#badge', width: 1000, page_width: expect.any(Number) }]);
});

test('content wider than the printable width of a PDF page is reported, measured at that width rather than the viewport', async () => {
  const pageWidth = Math.round(printableWidthPx(A4, resolveGeometry(A4)));
  // the viewport (1280) is wider than the table: only the page is not
  const output = await pdf('<p>Header</p><table id="wide" style="width:1100px"><tr><td>a</td></tr></table>');
  expect(output.findings.problems).toEqual([{ type: 'wider_than_page', selector: '#wide', width: 1108, page_width: pageWidth }]);
});

test('content wider than the canvas of an image is reported', async () => {
  const output = await image('<p>Header</p><div style="width:900px;height:10px;background:red"></div>');
  expect(output.findings.problems).toEqual([{ type: 'wider_than_page', selector: 'body > div:nth-child(2)', width: 908, page_width: 640 }]);
});

test('script in a document rendered with script off is reported; with script on only counted', async () => {
  const html = '<script>document.title = "x"</script><script type="application/ld+json">{}</script><button onclick="go()" onmouseover="x()">Go</button>';
  const [off, on] = await Promise.all([pdf(html), pdf(html, 'enabled')]);
  expect(off.findings.problems).toEqual([{ type: 'script_disabled', script_elements: 1, event_handlers: 2 }]);
  expect(off.findings.script).toEqual({ script_elements: 1, event_handlers: 2 });
  expect(on.findings.problems).toEqual([]);
  expect(on.findings.script).toEqual({ script_elements: 1, event_handlers: 2 });
});

test('fonts: a system face and a web font of the document, embedded in the PDF; null for images', async () => {
  const html =
    `<style>@font-face { font-family: "Doc Font"; src: url(${fontDataUrl}) }</style>` +
    '<p style="font-family: \'Doc Font\'">Heading in the web font</p><p style="font-family: \'DejaVu Serif\'">Body text in a system font</p>';
  const [printed, captured] = await Promise.all([pdf(html), image(html)]);
  expect(printed.findings.problems).toEqual([]);
  const faces = Object.fromEntries(printed.findings.fonts.map((font) => [font.face, font]));
  expect(faces['DejaVuSans-Bold']).toMatchObject({ family: 'DejaVu Sans', source: 'document', embedded: true });
  expect(faces['DejaVuSerif']).toMatchObject({ family: 'DejaVu Serif', source: 'system', embedded: true });
  expect(faces['DejaVuSans-Bold']!.glyphs).toBeGreaterThan(0);
  expect(captured.findings.fonts.map((font) => font.embedded)).toEqual(captured.findings.fonts.map(() => null));
  expect(captured.findings.fonts.map((font) => font.face).sort()).toEqual(printed.findings.fonts.map((font) => font.face).sort());
});

test('a PDF with installed fonts only lists its faces from the printed file: family, system, embedded; the same faces the page reports for an image', async () => {
  const html = '<p style="font-family: Arial">Sans words</p><p style="font-family: \'Times New Roman\'; font-weight: bold">Serif words</p>';
  const [printed, captured] = await Promise.all([pdf(html), image(html)]);
  expect(printed.findings.fonts).toEqual(
    expect.arrayContaining([
      { family: 'Liberation Sans', face: 'LiberationSans', source: 'system', embedded: true, glyphs: null },
      { family: 'Liberation Serif', face: 'LiberationSerif-Bold', source: 'system', embedded: true, glyphs: null },
    ]),
  );
  expect(printed.findings.fonts.map((font) => font.face).sort()).toEqual(captured.findings.fonts.map((font) => font.face).sort());
});

test('text in other scripts under one style lists each fallback face that drew it, for an image as for a PDF', async () => {
  const lines = ['Latin words', 'كلمات عربية', 'हिन्दी शब्द', 'คำภาษาไทย', '中文字符', '\u{1F600}\u{1F680}'];
  const html = `<style>p { font-family: sans-serif }</style>${lines.map((line) => `<p>${line}</p>`).join('')}`;
  const [printed, captured] = await Promise.all([pdf(html), image(html, 640, 480)]);
  const faces = (output: RenderOutput) => output.findings.fonts.map((font) => font.face);
  for (const face of [/^NotoSansArabic/, /^NotoSansDevanagari/, /^NotoSansThai/, /^NotoSansCJK/, /^NotoColorEmoji/]) {
    expect(faces(captured), String(face)).toContainEqual(expect.stringMatching(face));
  }
  for (const face of faces(printed)) expect(faces(captured)).toContain(face);
});

test('a font served from a brand kit asset is a brand_kit face', async () => {
  const reference = 'asset://asset_fedcba9876543210fedcba9876543210';
  const assets: AssetResolver = async (url) => (url === reference ? { bytes: fontBytes, mediaType: 'font/ttf', fontFamily: 'DejaVu Sans' } : null);
  const output = await pdf(`<style>@font-face { font-family: Brand; src: url(${reference}) }</style><p style="font-family: Brand">Brand words</p>`, 'disabled', assets);
  expect(output.findings.fonts).toContainEqual(expect.objectContaining({ face: 'DejaVuSans-Bold', source: 'brand_kit', embedded: true }));
});

test("the document's script cannot fool the look: it runs in the service's isolated world", async () => {
  const html =
    '<p id="text">Text</p><script>window.getComputedStyle = () => { throw new Error("no") }; ' +
    'document.getElementsByTagName = () => [{ attributes: [{ name: "onx" }] }];</script>';
  const output = await pdf(html, 'enabled');
  expect(output.pageCount).toBe(1);
  expect(output.findings.problems).toEqual([]);
  expect(output.findings.script).toEqual({ script_elements: 1, event_handlers: 0 });
});
