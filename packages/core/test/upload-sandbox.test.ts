// On a machine where the sandbox cannot start (no bubblewrap or user namespaces, not the
// development flag), an upload is not checked outside it: it is refused as the service being
// unable to take it now (503 overloaded with Retry-After), not as an invalid file or a 500.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { compress } from 'wawoff2';

vi.mock('@svc/sandbox', async (actual) => {
  const sandbox = await actual<typeof import('@svc/sandbox')>();
  const unavailable = () => {
    throw new sandbox.SandboxUnavailableError();
  };
  return { ...sandbox, sandboxLauncher: unavailable, spawnSandboxed: unavailable, runSandboxed: async () => unavailable() };
});

const { verifyImage } = await import('../src/assets/verify-image.ts');
const { verifyFont } = await import('../src/brand-kits/verify-font.ts');
const { missingUploadSandbox } = await import('../src/shared/upload-sandbox.ts');

const overloaded = { name: 'DomainError', code: 'overloaded', retryAfterSeconds: 30 };

describe('without a sandbox', () => {
  it('refuses an image upload as overloaded', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } }).png().toBuffer();
    await expect(verifyImage(png, 'image/png')).rejects.toMatchObject(overloaded);
  });

  it('refuses a font upload as overloaded', async () => {
    const woff2 = Buffer.from(await compress(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')));
    await expect(verifyFont(woff2)).rejects.toMatchObject(overloaded);
  });

  it('says why, for the web process to log at its start', () => {
    expect(missingUploadSandbox()).toMatch(/bubblewrap/);
  });
});
