// Brand font validation against the real OpenType Sanitizer, with a WOFF2 made in the test from
// a TrueType font that npm test installs (fonts-dejavu-core).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { compress } from 'wawoff2';
import { DomainError } from '../src/shared/errors.ts';
import { verifyFont } from '../src/brand-kits/verify-font.ts';

const ttfPath = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
let ttf: Buffer;
let woff2: Buffer;

beforeAll(async () => {
  ttf = await readFile(ttfPath);
  woff2 = Buffer.from(await compress(ttf));
});

async function refusal(bytes: Uint8Array, options?: Parameters<typeof verifyFont>[1]): Promise<string> {
  try {
    await verifyFont(bytes, options);
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('the font was accepted');
}

describe('verifyFont', () => {
  it('accepts a real WOFF2 and answers its family and glyph count', async () => {
    expect(woff2.subarray(0, 4).toString('latin1')).toBe('wOF2');
    const font = await verifyFont(woff2);
    expect(font.family).toBe('DejaVu Sans');
    expect(font.glyphCount).toBeGreaterThan(5_000);
    expect(font.glyphCount).toBeLessThan(20_000);
    expect(font.sanitised.readUInt32BE(0)).toBe(0x00010000);
  });

  it('answers no family for a name the service could not store whole (a NUL in it)', async () => {
    const renamed = Buffer.from(ttf);
    for (const [name, padded] of [
      [Buffer.from('DejaVu Sans', 'utf16le').swap16(), Buffer.from('Deja\u0000u Sans', 'utf16le').swap16()],
      [Buffer.from('DejaVu Sans', 'latin1'), Buffer.from('Deja\u0000u Sans', 'latin1')],
    ] as const) {
      for (let at = renamed.indexOf(name); at !== -1; at = renamed.indexOf(name, at + 1)) padded.copy(renamed, at);
    }
    const font = await verifyFont(Buffer.from(await compress(renamed)));
    expect(font.family).toBeNull();
    expect(font.glyphCount).toBeGreaterThan(5_000);
  });

  it('refuses a truncated WOFF2 with brand_font_tables_invalid', async () => {
    expect(await refusal(woff2.subarray(0, Math.floor(woff2.length / 2)))).toBe('brand_font_tables_invalid');
    const corrupt = Buffer.from(woff2);
    corrupt.fill(0xff, 48, 400);
    expect(await refusal(corrupt)).toBe('brand_font_tables_invalid');
  });

  it('refuses a TrueType font or other bytes declared as WOFF2 with brand_asset_type_unsupported', async () => {
    expect(await refusal(ttf)).toBe('brand_asset_type_unsupported');
    expect(await refusal(Buffer.from('wOF2'))).toBe('brand_asset_type_unsupported');
    expect(await refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'.repeat(4)))).toBe('brand_asset_type_unsupported');
  });

  it('refuses a font over the glyph bound with brand_font_glyphs_exceeded', async () => {
    const { glyphCount } = await verifyFont(woff2);
    expect(await refusal(woff2, { maxGlyphs: glyphCount - 1 })).toBe('brand_font_glyphs_exceeded');
    expect((await verifyFont(woff2, { maxGlyphs: glyphCount })).glyphCount).toBe(glyphCount);
  });
});
