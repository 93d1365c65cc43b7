// Every program that parses a tenant's bytes runs in the sandbox: pdftoppm (PDF thumbnails, in
// the worker), ots-sanitize (brand fonts, in the web process) and the image decoder (uploads,
// in the web process). Each is caught while it runs and read from /proc: a non-root account
// when the service is root, no new privileges, the seccomp filter, none of the service's
// variables (planted in this process's environment first), namespaces of its own, and from
// inside its view the data directory and the service's processes are not there.
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inViewOf } from '../../sandbox/test/support/sandbox-view.ts';
import { compress } from 'wawoff2';
import { pdfFirstPageThumbnail } from '../../renderer/src/pdf/first-page-thumbnail.ts';
import { whileRunning } from '../../sandbox/test/support/caught-process.ts';
import { verifyImage } from '../src/assets/verify-image.ts';
import { verifyFont } from '../src/brand-kits/verify-font.ts';

const SECRETS = { DATABASE_URL: 'postgres://svc:canary-db-password-3e1f@127.0.0.1:1/svc', SVC_AI_API_KEY: 'canary-ai-key-90b4', SVC_SIGNING_SECRET: 'canary-signing-5a7c' };
const saved: Record<string, string | undefined> = {};
/** stands in for SVC_DATA_DIR: private to the service's user */
let dataDir: string;

beforeAll(() => {
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  dataDir = mkdtempSync(join(tmpdir(), 'svc-parsers-data-'));
  writeFileSync(join(dataDir, 'secrets.key'), 'canary-secrets-key', { mode: 0o600 });
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** What a parser caught running must show. */
function expectSandboxed(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => status.match(new RegExp(`^${name}:\\s*(.*)$`, 'm'))?.[1] ?? '';
  const uids = field('Uid').split(/\s+/).map(Number);
  if (process.getuid?.() === 0) expect(uids.every((uid) => uid !== 0)).toBe(true);
  expect(field('NoNewPrivs')).toBe('1');
  expect(field('Seccomp')).toBe('2');
  expect(field('CapEff')).toBe('0000000000000000');

  const environment = readFileSync(`/proc/${pid}/environ`, 'utf8');
  const names = environment.split('\0').filter(Boolean).map((line) => line.slice(0, line.indexOf('=')));
  // the sandbox's own (bubblewrap adds PWD), nothing of the service's
  expect(names.sort()).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR']);
  for (const value of Object.values(SECRETS)) expect(environment).not.toContain(value);

  for (const namespace of ['user', 'pid', 'mnt', 'net', 'ipc']) {
    expect(readlinkSync(`/proc/${pid}/ns/${namespace}`)).not.toBe(readlinkSync(`/proc/self/ns/${namespace}`));
  }
  const missing = (command: string, args: string[]) => expect(() => inViewOf(pid, command, args)).toThrow(/No such file or directory/);
  missing('cat', [join(dataDir, 'secrets.key')]);
  missing('cat', [`/proc/${process.pid}/environ`]);
  // of the checkout, at most the store directories of sharp's own packages (the image decoder's)
  missing('cat', [join(process.cwd(), 'package.json')]);
  missing('ls', [join(process.cwd(), 'packages')]);
  // the only place it may write is its own /tmp: a tmpfs of a bounded size, not the machine's memory
  const [type, blocks, blockSize] = inViewOf(pid, 'stat', ['-f', '-c', '%T %b %S', '/tmp']).trim().split(' ');
  expect(type).toBe('tmpfs');
  expect(Number(blocks) * Number(blockSize)).toBeLessThanOrEqual(128 * 1024 * 1024);
}

/** A PDF whose one page draws a 2000 x 2000 image five times: poppler takes a moment over it. */
function slowPdf(): Buffer {
  const side = 2000;
  const image = deflateSync(Buffer.alloc(side * side, 0x80));
  const content = Buffer.from(Array.from({ length: 5 }, () => 'q 600 0 0 600 0 0 cm /Im Do Q').join('\n'));
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 600] /Resources << /XObject << /Im 4 0 R >> >> /Contents 5 0 R >>'),
    Buffer.concat([Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${image.length} >>\nstream\n`), image, Buffer.from('\nendstream')]),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

test('pdftoppm draws a thumbnail in the sandbox', async () => {
  const pdf = slowPdf();
  await whileRunning({ name: 'pdftoppm', marker: ' -scale-to ' }, () => pdfFirstPageThumbnail(pdf), expectSandboxed);
  // and the thumbnail still comes out: a grey 160 px page
  const { width, height, format } = await sharp(await pdfFirstPageThumbnail(pdf)).metadata();
  expect({ width, height, format }).toEqual({ width: 160, height: 160, format: 'webp' });
});

test('ots-sanitize checks a brand font in the sandbox', async () => {
  const woff2 = Buffer.from(await compress(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')));
  await whileRunning({ name: 'ots-sanitize', marker: 'input' }, () => verifyFont(woff2), expectSandboxed);
  expect((await verifyFont(woff2)).family).toBe('DejaVu Sans');
});

test('an uploaded image is decoded in the sandbox, not in the service', async () => {
  const jpeg = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  await whileRunning({ name: 'node', marker: 'sharp(image' }, () => verifyImage(jpeg, 'image/jpeg'), expectSandboxed);
  expect(await verifyImage(jpeg, 'image/jpeg')).toEqual({ ok: true, image: { mediaType: 'image/jpeg', width: 3000, height: 2000 } });
});
