import type { FieldDetail } from './envelope.ts';
import { formatPath } from './field-details.ts';

/**
 * U+0000 or a UTF-16 surrogate without its partner. PostgreSQL stores neither in text or jsonb
 * (NUL is refused, a lone surrogate becomes U+FFFD), and the template sandbox reads strings up
 * to the first NUL: text holding one would fail late or lose data silently, so it is refused.
 */
const unsafeTexts = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** ES2024's String.prototype.isWellFormed (Node 20 has it; the workspace's lib is ES2023). */
type WellFormedText = string & { isWellFormed(): boolean };

// Native checks: a regular expression with look-arounds costs tens of ms on a 5 MiB body.
export const hasUnsafeText = (text: string): boolean => text.indexOf('\u0000') !== -1 || !(text as WellFormedText).isWellFormed();

/** Members whose contents are template data: their inner paths are JSON Pointers (the contract's error rules). */
const dataMembers = new Set(['data', 'sample_data', 'data_overrides']);

/** A value met on the walk, with the way back to the root (paths are built only for a find). */
interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

/**
 * The path of the first string, or object key, in a parsed JSON value that holds U+0000 or a
 * lone surrogate; null when every text is clean. Iterative and linear in the size of the value,
 * so a deeply nested body can neither exhaust the stack nor cost quadratic time.
 */
export function findUnsafeText(value: unknown): string[] | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const current = visit.value;
    if (typeof current === 'string') {
      if (hasUnsafeText(current)) return pathOf(visit);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const isArray = Array.isArray(current);
    const keys = isArray ? null : Object.keys(current);
    const size = keys === null ? (current as unknown[]).length : keys.length;
    // pushed in reverse so the first offending member in document order is found first
    for (let index = size - 1; index >= 0; index -= 1) {
      const key = keys === null ? String(index) : (keys[index] as string);
      if (keys !== null && hasUnsafeText(key)) return pathOf({ value: null, key, parent: visit });
      stack.push({ value: (current as Record<string, unknown>)[key], key, parent: visit });
    }
  }
  return null;
}

function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The FieldDetail for such a path under `root` (a body has none, a query parameter its name):
 * dotted like other fields, and inside template data (data, sample_data, data_overrides, batch
 * rows) the member followed by a JSON Pointer, as data problems are reported.
 */
export function unsafeTextDetail(path: readonly string[], root?: string): FieldDetail {
  // an offending key is named with U+FFFD in place of what could not be stored
  const full = (root === undefined ? [...path] : [root, ...path]).map((segment) => segment.replace(unsafeTexts, '\ufffd'));
  // a JSON Schema may name a property "data": only the request's own data members are data
  const cut = full[0] === 'schema' ? -1 : full.findIndex((segment, index) => dataMembers.has(segment) || (segment === 'rows' && index === 0 && full.length > 1));
  const head = cut === -1 ? full : full.slice(0, full[cut] === 'rows' ? cut + 2 : cut + 1);
  const pointer = full.slice(head.length).map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
  return { field: `${formatPath(head)}${pointer}`.slice(0, 260), reason: 'invalid value' };
}

/** Throws through `fail` with the detail of the first unsafe text in `value`, if any. */
export function checkTextIntegrity(value: unknown, fail: (detail: FieldDetail) => Error, root?: string): void {
  const path = findUnsafeText(value);
  if (path !== null) throw fail(unsafeTextDetail(path, root));
}
