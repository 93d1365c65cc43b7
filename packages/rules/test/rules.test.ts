import { describe, expect, it } from 'vitest';
import { cutPointer, idPattern, idSource, isPageProblem, lengthInInches, pageGeometry, templateErrorCodes, templateErrorReasons, uncapturedIdSource } from '../src/index.ts';

describe('lengths', () => {
  it('reads the spellings the length rule allows and nothing else', () => {
    expect(lengthInInches('.5in')).toBe(0.5);
    expect(lengthInInches('96px')).toBe(1);
    expect(lengthInInches('25.4mm')).toBeCloseTo(1, 12);
    expect(lengthInInches('2.54cm')).toBeCloseTo(1, 12);
    expect(lengthInInches('999999.9999in')).toBe(999999.9999);
    for (const text of ['1.in', '1e2mm', ' 1mm', '1mm ', '1 mm', '+1mm', '-1mm', '1MM', '1', 'mm', '.mm', '1.12345mm', '1000000mm', '1pt', '']) {
      expect(lengthInInches(text), text).toBeNull();
    }
  });
});

describe('ids', () => {
  const hex = '0123456789abcdef0123456789abcdef';

  it('accepts a prefix and 32 lowercase hex characters, nothing else', () => {
    expect(idPattern('tpl_').test(`tpl_${hex}`)).toBe(true);
    for (const id of [`tpl_${hex.toUpperCase()}`, `tpl_${hex}0`, `tpl_${hex.slice(1)}`, `kit_${hex}`, ` tpl_${hex}`, `tpl_${hex}\n`]) {
      expect(idPattern('tpl_').test(id), id).toBe(false);
    }
  });

  it('reads several prefixes as the contract publishes them', () => {
    expect(idPattern('pdf_', 'image_').source).toBe('^(pdf|image)_[0-9a-f]{32}$');
    expect(idPattern('pdf_', 'image_').test(`image_${hex}`)).toBe(true);
    expect(idPattern('pdf_', 'image_').test(`group_${hex}`)).toBe(false);
    expect(new RegExp(`asset://(${idSource('asset_')})`).exec(`url(asset://asset_${hex})`)?.[1]).toBe(`asset_${hex}`);
  });

  it('stands inside a pattern that numbers its own groups without a group of its own', () => {
    const token = new RegExp(`^(${uncapturedIdSource('batch_', 'pack_')})\\.(\\d+)$`);
    expect(token.exec(`pack_${hex}.17`)?.slice(1)).toEqual([`pack_${hex}`, '17']);
    expect(token.test(`carousel_${hex}.17`)).toBe(false);
  });
});

describe('page geometry', () => {
  it('resolves formats, sizes and margins in inches', () => {
    const geometry = pageGeometry({ format: 'Letter', margins: { top: '1in' } });
    expect(geometry).toEqual({ widthIn: 8.5, heightIn: 11, margins: { top: 1, right: 0, bottom: 0, left: 0 } });
  });

  it('names the option that makes a page impossible', () => {
    const problem = (pdf: Parameters<typeof pageGeometry>[0]) => {
      const result = pageGeometry(pdf);
      return isPageProblem(result) ? `${result.path.join('.')}:${result.problem}` : 'ok';
    };
    expect(problem({ width: '1in' })).toBe('height:pair');
    expect(problem({ format: 'A4', height: '1in' })).toBe('height:format_and_size');
    expect(problem({ width: '0mm', height: '1in' })).toBe('width:not_positive');
    expect(problem({ width: '201in', height: '1in' })).toBe('width:too_large');
    expect(problem({ width: '2in', height: '1in', margins: { left: '1in', right: '1in' } })).toBe('margins.left:no_printable_area');
    expect(problem({ width: '2in', height: '1in', landscape: true, margins: { left: '1in', right: '.5in' } })).toBe('margins.left:no_printable_area');
    expect(problem({ width: '2in', height: '1in', landscape: true, margins: { top: '1in', bottom: '.5in' } })).toBe('ok');
  });
});

describe('code lists', () => {
  it('gives every template error code a reason', () => {
    expect(templateErrorCodes).toHaveLength(12);
    for (const code of templateErrorCodes) expect(templateErrorReasons[code]).toBeTruthy();
  });

  it('cuts JSON Pointers at 256 UTF-8 bytes on a character boundary', () => {
    expect(cutPointer('/a')).toBe('/a');
    const long = `/${'é'.repeat(200)}`;
    const cut = cutPointer(long);
    expect(new TextEncoder().encode(cut).byteLength).toBe(255);
    expect(long.startsWith(cut)).toBe(true);
  });
});
