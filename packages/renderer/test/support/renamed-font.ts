// A face no installed font shares a name with: DejaVu Sans Mono renamed "Brandy Face Mono"
// (same lengths, so the font's tables keep their layout), for tests of web fonts.
import { readFile } from 'node:fs/promises';

export async function brandyFaceTtf(): Promise<Buffer> {
  const ttf = Buffer.from(await readFile('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'));
  for (const [from, to] of [
    ['DejaVu Sans', 'Brandy Face'],
    ['DejaVuSans', 'BrandyFace'],
  ] as const) {
    for (const encode of [(text: string) => Buffer.from(text, 'latin1'), (text: string) => Buffer.from(text, 'utf16le').swap16()]) {
      const needle = encode(from);
      for (let at = ttf.indexOf(needle); at !== -1; at = ttf.indexOf(needle, at + 1)) encode(to).copy(ttf, at);
    }
  }
  return ttf;
}
