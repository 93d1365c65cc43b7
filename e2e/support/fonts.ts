// Real WOFF2 fonts for brand asset tests: a system TrueType font (fonts-dejavu-core, installed by
// npm test) compressed with wawoff2, the encoder the core font tests use (a dev dependency of
// @svc/core, loaded from there).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const { compress } = createRequire(new URL('../../packages/core/package.json', import.meta.url))('wawoff2') as {
  compress(input: Uint8Array): Promise<Uint8Array>;
};

export const fontDir = '/usr/share/fonts/truetype/dejavu';

/** A system TrueType font file as is. */
export const ttf = (file: string) => readFile(`${fontDir}/${file}`);

/** A system TrueType font as WOFF2. */
export async function woff2(file: string): Promise<Buffer> {
  return Buffer.from(await compress(await ttf(file)));
}

/** The tables of a TrueType font by tag. */
function tablesOf(font: Buffer): Map<string, Buffer> {
  const tables = new Map<string, Buffer>();
  const count = font.readUInt16BE(4);
  for (let index = 0; index < count; index += 1) {
    const record = 12 + index * 16;
    const offset = font.readUInt32BE(record + 8);
    tables.set(font.toString('latin1', record, record + 4), font.subarray(offset, offset + font.readUInt32BE(record + 12)));
  }
  return tables;
}

/** A TrueType font file from its tables (checksums left zero: the sanitiser does not require them). */
function fontOf(tables: Map<string, Buffer>): Buffer {
  const tags = [...tables.keys()].sort();
  const header = Buffer.alloc(12 + tags.length * 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tags.length, 4);
  const entrySelector = Math.floor(Math.log2(tags.length));
  header.writeUInt16BE(16 * 2 ** entrySelector, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(tags.length * 16 - 16 * 2 ** entrySelector, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  tags.forEach((tag, index) => {
    const table = tables.get(tag)!;
    const record = 12 + index * 16;
    header.write(tag, record, 'latin1');
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(table.length / 4) * 4);
    table.copy(padded);
    bodies.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([header, ...bodies]);
}

/**
 * A system font grown to `glyphs` glyphs by appending empty ones (no outline, the last advance):
 * only the required tables are kept, since others count glyphs too; post becomes version 3 (no names).
 */
export async function woff2WithGlyphs(file: string, glyphs: number): Promise<Buffer> {
  const source = tablesOf(await ttf(file));
  const maxp = Buffer.from(source.get('maxp')!);
  const had = maxp.readUInt16BE(4);
  maxp.writeUInt16BE(glyphs, 4);
  const metrics = source.get('hhea')!.readUInt16BE(34);
  const hmtx = Buffer.concat([source.get('hmtx')!.subarray(0, metrics * 4 + (had - metrics) * 2), Buffer.alloc((glyphs - had) * 2)]);
  const longLoca = source.get('head')!.readInt16BE(50) === 1;
  const oldLoca = source.get('loca')!;
  const size = longLoca ? 4 : 2;
  const end = oldLoca.subarray(had * size, (had + 1) * size);
  const loca = Buffer.concat([oldLoca.subarray(0, (had + 1) * size), ...Array.from({ length: glyphs - had }, () => end)]);
  const post = Buffer.from(source.get('post')!.subarray(0, 32));
  post.writeUInt32BE(0x00030000, 0);
  const tables = new Map<string, Buffer>([
    ['cmap', source.get('cmap')!],
    ['head', source.get('head')!],
    ['hhea', source.get('hhea')!],
    ['hmtx', hmtx],
    ['maxp', maxp],
    ['name', source.get('name')!],
    ['OS/2', source.get('OS/2')!],
    ['post', post],
    ['glyf', source.get('glyf')!],
    ['loca', loca],
  ]);
  return Buffer.from(await compress(fontOf(tables)));
}
