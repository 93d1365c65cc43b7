// The family name a TrueType or OpenType font gives itself, read from its name table: the
// report names a face's family as its file does (what Chromium reports for the faces elements
// drew), and a face read from a printed PDF is named the same way from the font program the file
// embeds (embedded-fonts.ts).

/**
 * Name IDs of a family, best first: the family (1), as Chromium reports a face's family and the
 * brand kit stores it (DejaVu Sans Light, Inter Thin), then the typographic family (16).
 */
const FAMILY_IDS = [1, 16];
const WINDOWS = 3;
const UNICODE = 0;
const MACINTOSH = 1;
const US_ENGLISH = 0x409;

/** The family name in a TrueType or OpenType font's name table; null when it has none or does not parse. */
export function sfntFamilyName(font: Buffer): string | null {
  try {
    const tables = font.readUInt16BE(4);
    for (let index = 0; index < tables; index += 1) {
      const entry = 12 + 16 * index;
      if (font.toString('latin1', entry, entry + 4) !== 'name') continue;
      const offset = font.readUInt32BE(entry + 8);
      return familyIn(font.subarray(offset, offset + font.readUInt32BE(entry + 12)));
    }
  } catch {
    // a table past the end of the file: a RangeError from the reads
  }
  return null;
}

function familyIn(table: Buffer): string | null {
  const count = table.readUInt16BE(2);
  const strings = table.readUInt16BE(4);
  let best: { rank: number; name: string } | null = null;
  for (let index = 0; index < count; index += 1) {
    const record = 6 + 12 * index;
    const platform = table.readUInt16BE(record);
    const encoding = table.readUInt16BE(record + 2);
    const language = table.readUInt16BE(record + 4);
    const id = FAMILY_IDS.indexOf(table.readUInt16BE(record + 6));
    if (id === -1) continue;
    const start = strings + table.readUInt16BE(record + 10);
    const bytes = table.subarray(start, start + table.readUInt16BE(record + 8));
    // Windows English first, then any Windows or Unicode name (UTF-16), then a Macintosh Roman one
    let rank: number;
    let name: string;
    if (platform === WINDOWS && (encoding === 1 || encoding === 10)) [rank, name] = [language === US_ENGLISH ? 0 : 1, utf16(bytes)];
    else if (platform === UNICODE) [rank, name] = [1, utf16(bytes)];
    else if (platform === MACINTOSH && encoding === 0 && language === 0 && /^[\x20-\x7e]*$/.test(bytes.toString('latin1'))) [rank, name] = [2, bytes.toString('latin1')];
    else continue;
    rank += id * 3;
    if (name.trim() !== '' && (!best || rank < best.rank)) best = { rank, name: name.trim() };
  }
  return best?.name ?? null;
}

function utf16(bytes: Buffer): string {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length & ~1));
  return swapped.swap16().toString('utf16le');
}
