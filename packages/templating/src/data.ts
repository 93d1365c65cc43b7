import { cutPointer } from '@svc/rules';
import { TemplateError } from './errors.ts';
import { resolveTemplateLimits, type TemplateLimits } from './limits.ts';

/**
 * Key-sorted JSON with JSON.stringify's value rules (toJSON honoured, non-finite numbers
 * become null, undefined, functions and symbols dropped from objects and nulled in arrays).
 * Keys sort by UTF-16 code units, so the text is stable for fingerprints and size limits.
 */
export function canonicalJson(value: unknown): string {
  const text = serialize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

function serialize(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('BigInt has no JSON representation');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    return `[${value.map((item) => serialize(item) ?? 'null').join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = serialize(record[key]);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

/** Throws template_data_depth_limit, template_data_collection_limit or template_data_limit. */
export function checkTemplateData(data: unknown, limits?: Partial<TemplateLimits>): void {
  const { dataDepth, dataCollection, dataBytes } = resolveTemplateLimits(limits);
  // Depth and breadth first: they also keep canonicalJson's recursion bounded.
  const path: string[] = [];
  walk(data, 0);
  if (Buffer.byteLength(canonicalJson(data), 'utf8') > dataBytes) {
    throw new TemplateError('template_data_limit');
  }

  function walk(value: unknown, depth: number): void {
    if (value === null || typeof value !== 'object') return;
    if (depth + 1 > dataDepth) throw new TemplateError('template_data_depth_limit', { pointer: jsonPointer(path) });
    const keys = Array.isArray(value) ? null : Object.keys(value);
    const size = keys === null ? (value as unknown[]).length : keys.length;
    if (size > dataCollection) {
      throw new TemplateError('template_data_collection_limit', { pointer: jsonPointer(path) });
    }
    for (let index = 0; index < size; index += 1) {
      const key = keys === null ? String(index) : (keys[index] as string);
      path.push(key);
      walk((value as Record<string, unknown>)[key], depth + 1);
      path.pop();
    }
  }
}

/** FieldDetail.field is "data" followed by a JSON Pointer cut at 256 UTF-8 bytes (the contract's error rules). */
function jsonPointer(path: string[]): string {
  return cutPointer(path.map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join(''));
}
