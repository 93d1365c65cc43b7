// Where a file came from, read back as a person would: pdfinfo's custom Info keys and XMP, and
// the XMP and PNG text of images through sharp.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { EffectiveImageOptions, EffectiveViewport, PdfOptions, RenderProvenance } from '@svc/contracts';
import { PDFDocument } from 'pdf-lib';
import { Renderer } from '../src/index.ts';
import { appendProvenance } from '../src/pdf/provenance.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const viewport: EffectiveViewport = { width: 1280, height: 720, device_scale_factor: 1 };
const provenance: RenderProvenance = {
  job_id: 'job_0123456789abcdef0123456789abcdef',
  template: { id: 'tpl_0123456789abcdef0123456789abcdef', version: 7 },
  data_sha256: 'a'.repeat(64),
};

const renderPdf = (pdf: PdfOptions, html = '<title>From the page (endobj)</title><p>Provenance</p>', given: RenderProvenance | null = provenance) =>
  renderer.renderPdf({ html, pdf, viewport, javascript: 'disabled', ...(given ? { provenance: given } : {}) });

function pdfinfo(bytes: Buffer, args: string[]): string {
  const result = spawnSync('pdfinfo', ['-enc', 'UTF-8', ...args, '-'], { input: bytes });
  expect(result.status, result.stderr.toString()).toBe(0);
  return result.stdout.toString();
}

function qpdfCheck(bytes: Buffer, password?: string): number | null {
  const directory = mkdtempSync(join(tmpdir(), 'provenance-test-'));
  try {
    writeFileSync(join(directory, 'in.pdf'), bytes);
    return spawnSync('qpdf', ['--check', ...(password ? [`--password=${password}`] : []), join(directory, 'in.pdf')]).status;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function expectPdfProvenance(bytes: Buffer, password?: string) {
  const upw = password ? ['-upw', password] : [];
  const info = pdfinfo(bytes, [...upw, '-custom']);
  expect(info).toMatch(/^SvcJobId:\s+job_0123456789abcdef0123456789abcdef$/m);
  expect(info).toMatch(/^SvcTemplateId:\s+tpl_0123456789abcdef0123456789abcdef$/m);
  expect(info).toMatch(/^SvcTemplateVersion:\s*7$/m);
  expect(info).toMatch(new RegExp(`^SvcDataSha256:\\s+${'a'.repeat(64)}$`, 'm'));
  const xmp = pdfinfo(bytes, [...upw, '-meta']);
  expect(xmp).toContain('xmlns:svc="urn:svc:ns:provenance:1.0/"');
  expect(xmp).toContain('<svc:JobId>job_0123456789abcdef0123456789abcdef</svc:JobId>');
  expect(xmp).toContain('<svc:TemplateVersion>7</svc:TemplateVersion>');
  expect(xmp).toContain(`<svc:DataSha256>${'a'.repeat(64)}</svc:DataSha256>`);
  // qpdf exits 0 (clean) or 3 (warnings only)
  expect([0, 3]).toContain(qpdfCheck(bytes, password));
  expect(execFileSync('qpdf', ['--version']).length).toBeGreaterThan(0);
}

describe('PDF', () => {
  test('the Info dictionary and the XMP stream carry job, template, version and data hash; the document title stays', async () => {
    const output = await renderPdf({ format: 'A4' });
    expectPdfProvenance(output.bytes);
    expect(pdfinfo(output.bytes, [])).toMatch(/^Title:\s+From the page \(endobj\)$/m);
    expect(pdfinfo(output.bytes, [])).toMatch(/^Page size:\s+595\.2\d* x 841\.8\d* pts/m);
    expect(output.pageCount).toBe(1);
  });

  test('also with title, author and subject written by pdf-lib, and through encryption', async () => {
    const titled = await renderPdf({ format: 'A5', title: 'Zürich report', author: 'Ada' });
    expectPdfProvenance(titled.bytes);
    expect(pdfinfo(titled.bytes, [])).toMatch(/^Title:\s+Zürich report$/m);
    expect(pdfinfo(titled.bytes, [])).toMatch(/^Author:\s+Ada$/m);
    const locked = await renderPdf({ format: 'A4', password: 'open sesame' });
    expectPdfProvenance(locked.bytes, 'open sesame');
  });

  test('a raw render records only its job; no provenance, no keys', async () => {
    const raw = await renderPdf({ format: 'A4' }, '<p>raw</p>', { job_id: 'job_raw' });
    const info = pdfinfo(raw.bytes, ['-custom']);
    expect(info).toMatch(/^SvcJobId:\s+job_raw$/m);
    expect(info).not.toContain('SvcTemplateId');
    expect(info).not.toContain('SvcDataSha256');
    const none = await renderPdf({ format: 'A4' }, '<p>none</p>', null);
    expect(pdfinfo(none.bytes, ['-custom'])).not.toContain('Svc');
    expect(spawnSync('pdfinfo', ['-meta', '-'], { input: none.bytes }).stdout.toString()).not.toContain('svc:');
  });

  test('a thousand-page document is stamped without rewriting it', async () => {
    const html = `<style>p { break-after: page; margin: 0 }</style>${'<p>page</p>'.repeat(1_000)}`;
    const output = await renderPdf({ format: 'A6' }, html);
    expect(output.pageCount).toBe(1_000);
    expectPdfProvenance(output.bytes);
    // Chromium's file as it was, and one update after it
    expect(output.bytes.toString('latin1').match(/startxref/g)).toHaveLength(2);
  });
});

test('a file with a cross-reference stream (not Chromium\'s layout) is rewritten into a table first, then stamped', async () => {
  const document = await PDFDocument.create();
  document.addPage([200, 200]);
  document.setTitle('Streamed');
  const streamed = Buffer.from(await document.save({ useObjectStreams: true }));
  expect(streamed.toString('latin1')).toContain('/XRef');
  const stamped = await appendProvenance(streamed, provenance);
  expectPdfProvenance(stamped);
  expect(pdfinfo(stamped, [])).toMatch(/^Title:\s+Streamed$/m);
  // stamping twice keeps one value per key
  const again = await appendProvenance(stamped, { job_id: 'job_second' });
  expect(pdfinfo(again, ['-custom']).match(/^SvcJobId:.*$/gm)).toEqual(['SvcJobId:        job_second']);
});

describe('images', () => {
  const renderImage = (image: EffectiveImageOptions) =>
    renderer.renderImage({ html: '<body style="background:#2a6">Provenance</body>', image, javascript: 'disabled', provenance });

  test.each([
    { format: 'png', width: 640, height: 360 },
    { format: 'png', width: 640, height: 360, transparent: true },
    { format: 'jpeg', width: 800, height: 400, quality: 80 },
    { format: 'webp', width: 800, height: 400, quality: 80 },
    { format: 'webp', width: 800, height: 400, quality: 80, transparent: true },
  ] satisfies EffectiveImageOptions[])('$format (transparent: $transparent) carries the XMP packet, pixels untouched', async (image) => {
    const output = await renderImage(image);
    const metadata = await sharp(output.bytes).metadata();
    expect(metadata.format).toBe(image.format);
    expect([metadata.width, metadata.height]).toEqual([image.width, image.height]);
    const xmp = metadata.xmp?.toString('utf8') ?? '';
    expect(xmp).toContain('<svc:JobId>job_0123456789abcdef0123456789abcdef</svc:JobId>');
    expect(xmp).toContain('<svc:TemplateId>tpl_0123456789abcdef0123456789abcdef</svc:TemplateId>');
    expect(xmp).toContain(`<svc:DataSha256>${'a'.repeat(64)}</svc:DataSha256>`);
    // the image decodes whole
    const { info } = await sharp(output.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([image.width, image.height]);
    if (image.format === 'png') {
      const text = Object.fromEntries((metadata.comments ?? []).map((comment) => [comment.keyword, comment.text]));
      expect(text.SvcJobId).toBe('job_0123456789abcdef0123456789abcdef');
      expect(text.SvcTemplateVersion).toBe('7');
      expect(text.SvcDataSha256).toBe('a'.repeat(64));
    }
  });
});
