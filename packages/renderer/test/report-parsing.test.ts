// The report's readers of tool output: fontconfig's character sets and a PDF's font names.
import { expect, test } from 'vitest';
import { embeddedFaceNames } from '../src/report/embedded-fonts.ts';
import { parseCharsets } from '../src/report/system-glyphs.ts';

test('character sets of several fonts merge into sorted ranges', () => {
  expect(parseCharsets('20-7e a0-ff\n41-5a 100-17f 3000\n\n1f600-1f64f 3001-30ff\n')).toEqual([0x20, 0x7e, 0xa0, 0x17f, 0x3000, 0x30ff, 0x1f600, 0x1f64f]);
});

test("a PDF's font descriptors name its faces, subset tags and #xx escapes undone", () => {
  const pdf = Buffer.from('<< /Type /FontDescriptor /FontName /ABCDEF+DejaVuSans-Bold /FontFile2 9 0 R >>\n<</FontName/BCDEFG+Noto#20Sans>>', 'latin1');
  expect([...embeddedFaceNames(pdf)]).toEqual(['DejaVuSans-Bold', 'Noto Sans']);
});
