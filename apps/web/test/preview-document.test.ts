import { describe, expect, it } from 'vitest';
import { previewContentSecurityPolicy, previewDocument } from '../src/dashboard/templates/preview-document.ts';

describe('the live preview document', () => {
  it('forbids every network fetch: only data: images and fonts, inline styles', () => {
    const directives = previewContentSecurityPolicy.split('; ');
    expect(directives).toEqual(expect.arrayContaining(["default-src 'none'", 'img-src data:', 'font-src data:', "style-src 'unsafe-inline'"]));
    expect(previewContentSecurityPolicy).not.toMatch(/script-src|https?:|\*/);
  });

  it('puts the policy before any content, after the doctype so the page keeps standards mode', () => {
    const html = previewDocument('<!DOCTYPE html>\n<html><head><link rel="stylesheet" href="https://example.com/a.css"></head><body>Hi</body></html>');
    expect(html.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<link'));
    expect(previewDocument('<p>plain</p>')).toMatch(/^<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*"><style>[^<]*<\/style><p>plain<\/p>$/);
  });
});
