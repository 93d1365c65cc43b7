import type { z } from 'zod';
import { type FieldDetail, type FieldReason, maxFieldDetails } from './envelope.ts';

const maxFieldLength = 260;

/**
 * Turns validation issues into FieldDetail entries: dotted paths (array positions as
 * numbers, e.g. pages.2), the spec's fixed reasons, and never the offending value.
 * `root` prefixes every path (e.g. "limit" for a query parameter).
 */
export function fieldDetailsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown, root?: string): FieldDetail[] {
  const details: FieldDetail[] = [];
  const seen = new Set<string>();
  const push = (path: readonly PropertyKey[], reason: FieldReason) => {
    const field = formatPath(root ? [root, ...path] : path);
    const key = `${field}\u0000${reason}`;
    if (seen.has(key) || details.length >= maxFieldDetails) return;
    seen.add(key);
    details.push({ field, reason });
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) push([...issue.path, key], 'unknown field');
    } else if (issue.code === 'invalid_type') {
      push(issue.path, isMissing(input, issue.path) ? 'missing field' : 'wrong type');
    } else if (issue.code === 'invalid_value' && isMissing(input, issue.path)) {
      // a required choice left out (image: {} has no format) is missing, not a wrong choice
      push(issue.path, 'missing field');
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // exactly-one-of shapes: report the branch that got furthest, else the field itself
      push(issue.path, isMissing(input, issue.path) ? 'missing field' : 'invalid value');
    } else {
      push(issue.path, 'invalid value');
    }
  }
  return details;
}

export function formatPath(path: readonly PropertyKey[]): string {
  const text = path.map((segment) => String(segment)).join('.');
  return text.length > maxFieldLength ? text.slice(0, maxFieldLength) : text;
}

function isMissing(input: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return true;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return true;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current === undefined;
}
