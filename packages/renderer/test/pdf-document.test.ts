// Document-level PDF options: Info metadata, the AES-256 open password, and the viewport the
// page is laid out in before printing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RenderError, type PdfOptions, type EffectiveViewport } from '@svc/contracts';
import { Renderer } from '../src/index.ts';

let renderer: Renderer;

beforeAll(async () => {
  renderer = await Renderer.start({ concurrency: 2 });
});

afterAll(async () => {
  await renderer?.close();
});

const defaultViewport: EffectiveViewport = { width: 1280, height: 720, device_scale_factor: 1 };

const render = (pdf: PdfOptions, html = '<p>Secret numbers</p>', viewport = defaultViewport, javascript: 'enabled' | 'disabled' = 'disabled') =>
  renderer.renderPdf({ html, pdf, viewport, javascript });

function pdfInfo(bytes: Buffer, password?: string): { status: number | null; fields: Record<string, string> } {
  const args = password === undefined ? ['-enc', 'UTF-8', '-'] : ['-enc', 'UTF-8', '-upw', password, '-'];
  const result = spawnSync('pdfinfo', args, { input: bytes });
  const lines = result.stdout.toString().split('\n');
  return { status: result.status, fields: Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()])) };
}

const svcTempDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('svc-pdf-'));

test('title, author and subject land in the Info dictionary, Unicode included', async () => {
  const output = await render({ title: 'Quarterly report – Zürich', author: 'Ada Lovelace', subject: 'Numbers' });
  const { fields } = pdfInfo(output.bytes);
  expect(fields.Title).toBe('Quarterly report – Zürich');
  expect(fields.Author).toBe('Ada Lovelace');
  expect(fields.Subject).toBe('Numbers');
});

test('without a title option the document <title> is used, and never "about:blank"', async () => {
  expect(pdfInfo((await render({}, '<title>From the page</title><p>x</p>')).bytes).fields.Title).toBe('From the page');
  expect(pdfInfo((await render({}, '<p>untitled</p>')).bytes).fields.Title).toBeUndefined();
});

test('a password-protected PDF opens only with its password (AES-256)', async () => {
  const before = svcTempDirs();
  // poppler's -upw keeps at most 32 bytes, so the poppler checks use a short password
  const password = 'horse "staple"\n ü';
  const output = await render({ password, title: 'Locked' });

  expect(pdfInfo(output.bytes).status).not.toBe(0);
  expect(pdfInfo(output.bytes, 'wrong').status).not.toBe(0);
  const opened = pdfInfo(output.bytes, password);
  expect(opened.status).toBe(0);
  expect(opened.fields.Encrypted).toMatch(/^yes/);
  expect(opened.fields.Title).toBe('Locked');

  const text = execFileSync('pdftotext', ['-upw', password, '-', '-'], { input: output.bytes }).toString();
  expect(text).toContain('Secret numbers');
  expect(spawnSync('pdftotext', ['-', '-'], { input: output.bytes }).status).not.toBe(0);

  // the job file that carried the password is gone
  expect(svcTempDirs()).toEqual(before);
});

test('qpdf: AES-256 (R6), unreadable without the password, a 127-byte password works', async () => {
  const password = `${'ü'.repeat(60)}pass!!!`; // 127 UTF-8 bytes
  const output = await render({ password });
  const directory = mkdtempSync(join(tmpdir(), 'pdf-document-test-'));
  try {
    const file = join(directory, 'locked.pdf');
    writeFileSync(file, output.bytes);
    expect(spawnSync('qpdf', ['--check', file]).status).not.toBe(0);
    expect(spawnSync('qpdf', ['--check', '--password=wrong', file]).status).not.toBe(0);
    const check = spawnSync('qpdf', ['--check', `--password=${password}`, file]);
    expect(check.status).toBe(0);
    const encryption = spawnSync('qpdf', ['--show-encryption', `--password=${password}`, file]).stdout.toString();
    expect(encryption).toMatch(/R = 6/);
    expect(encryption).toMatch(/AESv3/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('an empty or over-long password is refused rather than silently unprotected', async () => {
  for (const password of ['', 'x'.repeat(128)]) {
    const error = await render({ password }).catch((caught: unknown) => caught);
    expect((error as RenderError).code).toBe('invalid_password');
  }
});

test('the viewport (size and device scale factor) applies before the content loads', async () => {
  const probe = '<body><p id=p></p><script>document.getElementById("p").textContent = `${innerWidth}x${innerHeight}@${devicePixelRatio}`</script></body>';
  const output = await render({}, probe, { width: 1024, height: 600, device_scale_factor: 2 }, 'enabled');
  const text = execFileSync('pdftotext', ['-', '-'], { input: output.bytes }).toString();
  expect(text).toContain('1024x600@2');
});
