// Finding text the service cannot store whole, and naming where it is.
import { findUnsafeText, hasUnsafeText, unsafeTextDetail } from '@svc/contracts';
import { describe, expect, it } from 'vitest';

describe('unsafe text', () => {
  it('is U+0000 or a surrogate without its partner; pairs are fine', () => {
    for (const text of ['\u0000', 'a\ud800', '\ud800a', '\udc00', 'x\udc00\ud800y', '😀\ud83d']) expect(hasUnsafeText(text), JSON.stringify(text)).toBe(true);
    for (const text of ['', 'plain', '😀', '𝄞😀x', '\u0001\ufffd\uffff']) expect(hasUnsafeText(text), JSON.stringify(text)).toBe(false);
  });

  it('is found in document order, in values and keys, at any depth', () => {
    expect(findUnsafeText({ a: 'ok', b: ['ok', { c: 'x\u0000' }], d: '\u0000' })).toEqual(['b', '1', 'c']);
    expect(findUnsafeText({ ok: 1, ['k\ud800']: 1 })).toEqual(['k\ud800']);
    expect(findUnsafeText({ a: [1, true, null, '😀'] })).toBeNull();
    // a million levels (a 2 MB body) in linear time, without exhausting the stack
    let deep: unknown = '\u0000';
    for (let index = 0; index < 1_000_000; index += 1) deep = [deep];
    const started = performance.now();
    expect(findUnsafeText(deep)).toHaveLength(1_000_000);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('is named as a dotted field, and inside data as a JSON Pointer', () => {
    expect(unsafeTextDetail(['pdf', 'title'])).toEqual({ field: 'pdf.title', reason: 'invalid value' });
    expect(unsafeTextDetail(['tags', '2']).field).toBe('tags.2');
    expect(unsafeTextDetail(['data', 'a/b', '0']).field).toBe('data/a~1b/0');
    expect(unsafeTextDetail(['rows', '3', 'name']).field).toBe('rows.3/name');
    expect(unsafeTextDetail(['sizes', '0', 'data_overrides', 'x']).field).toBe('sizes.0.data_overrides/x');
    expect(unsafeTextDetail(['schema', 'properties', 'data', 'title']).field).toBe('schema.properties.data.title');
    expect(unsafeTextDetail(['data', 'k\u0000']).field).toBe('data/k\ufffd');
    expect(unsafeTextDetail(['a%00'], 'q').field).toBe('q.a%00');
  });
});
