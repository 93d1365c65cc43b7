// The font list is stated once (src/fonts.ts): docs/fonts.md names the same families and
// aliases, and bootstrap installs every package it names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fontFamilyValue, installedFontFamilies, metricCompatibleAliases } from '../src/index.ts';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The rows of the markdown table under a heading, as arrays of trimmed cells. */
function tableUnder(markdown: string, heading: string): string[][] {
  const lines = markdown.slice(markdown.indexOf(`## ${heading}\n`)).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  // the header row and the |---| row, then the table's rows
  return lines.slice(first + 2, end).map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

describe('docs/fonts.md', () => {
  const docs = read('docs/fonts.md');

  it('lists every installed family with its generic family, package and the names it replaces, in order', () => {
    const rows = tableUnder(docs, 'Families');
    expect(rows).toEqual(installedFontFamilies.map((font) => [font.family, font.category, font.debianPackage, font.replaces.join(', ')]));
  });

  it('maps each proprietary name to the face the renderer aliases it to', () => {
    const rows = tableUnder(docs, 'Proprietary names');
    const documented = rows.flatMap(([names, family]) => names!.split(', ').map((name) => ({ name, family })));
    expect(documented).toEqual(metricCompatibleAliases);
  });
});

it('bootstrap installs the Debian package of every family', () => {
  const bootstrap = read('scripts/bootstrap.mjs');
  for (const font of installedFontFamilies) expect(bootstrap, font.debianPackage).toContain(`apt: '${font.debianPackage}'`);
});

it('a CSS value quotes names with spaces and ends with the generic family', () => {
  const value = (family: string) => fontFamilyValue(installedFontFamilies.find((font) => font.family === family)!);
  expect(value('Liberation Sans')).toBe('"Liberation Sans", Arial, Helvetica, sans-serif');
  expect(value('Carlito')).toBe('Carlito, Calibri, sans-serif');
  expect(value('Fira Code')).toBe('"Fira Code", monospace');
  expect(value('Noto Color Emoji')).toBe('"Noto Color Emoji", emoji');
});
