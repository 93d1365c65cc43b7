// Codes through the service as it runs from its JavaScript builds: the worker process draws
// <svc-code> elements on its drawing thread (loaded from packages/codes beside the bundle), and
// a template's code filters draw in the template sandbox; a value a filter refuses answers
// template_invalid_filter_input with @svc/codes' reason in the message.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount } from './support/api.ts';
import { renderOk } from './support/files.ts';

const url = 'https://example.com/i/2026-0042';

/** What zbarimg reads in a PNG, its bytes as they are. */
function decode(png: Buffer): string {
  const directory = mkdtempSync(join(tmpdir(), 'codes-e2e-'));
  try {
    writeFileSync(join(directory, 'code.png'), png);
    return execFileSync('zbarimg', ['-q', '--raw', '-Sbinary', join(directory, 'code.png')]).toString();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('codes', () => {
  it('an image render draws an <svc-code> element', async () => {
    const account = await newAccount();
    const html = `<body style="margin:0"><svc-code kind="qr" value="${url}" size="300px"></svc-code></body>`;
    const { file } = await renderOk('image', account.apiKey, { html, image: { format: 'png', width: 400, height: 400 } });
    expect(decode(file.bytes)).toBe(url);
  }, 60_000);

  it('a template draws with the qrcode filter, and a refused value says why', async () => {
    const account = await newAccount();
    const { file } = await renderOk('image', account.apiKey, { html: '<body style="margin:0">{{ order.url | qrcode(size="300px") }}</body>', data: { order: { url } }, image: { format: 'png', width: 400, height: 400 } });
    expect(decode(file.bytes)).toBe(url);

    const refused = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body: { html: '<p>\n{{ ean | barcode("ean13") }}', data: { ean: '4006381333932' } } });
    const error = expectError(refused, 400, 'template_invalid_filter_input');
    expect(error.message).toBe('A template filter received a value it cannot use. The code cannot be drawn: value: wrong check digit 2: the EAN-13 check digit of these digits is 1.');
    expect(error.details?.[0]).toMatchObject({ line: 2, column: 10 });
  }, 60_000);
});
