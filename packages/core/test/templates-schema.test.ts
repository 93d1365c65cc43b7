// Data schemas of saved templates: drafts, size and complexity bounds, and data errors.
import { DomainError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { compileDataSchema, validateData } from '../src/templates/data-schema.ts';

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
}

function dataErrors(schema: unknown, data: unknown) {
  try {
    validateData(compileDataSchema(schema), data);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'template_data_invalid') return error.details;
    throw error;
  }
  return undefined;
}

describe('schema drafts', () => {
  it('accepts 2020-12 (also when $schema is absent), 2019-09 and draft-07, and no schema at all', () => {
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft-07/schema#']) {
      expect(codeOf(() => compileDataSchema({ $schema, type: 'object' }))).toBeUndefined();
    }
    expect(codeOf(() => compileDataSchema({ type: 'object', prefixItems: [{ type: 'string' }] }))).toBeUndefined();
    expect(compileDataSchema(null)).toBeNull();
    expect(codeOf(() => compileDataSchema(true))).toBeUndefined();
  });

  it('refuses other drafts, invalid schemas and unresolvable references', () => {
    expect(codeOf(() => compileDataSchema({ $schema: 'http://json-schema.org/draft-04/schema#' }))).toBe('template_schema_draft_unsupported');
    expect(codeOf(() => compileDataSchema({ $schema: 'https://example.com/my-schema' }))).toBe('template_schema_draft_unsupported');
    expect(codeOf(() => compileDataSchema({ $schema: 7 }))).toBe('template_schema_invalid');
    expect(codeOf(() => compileDataSchema({ type: 'thing' }))).toBe('template_schema_invalid');
    expect(codeOf(() => compileDataSchema({ minLength: -1 }))).toBe('template_schema_invalid');
    expect(codeOf(() => compileDataSchema({ $ref: 'https://example.com/remote.json' }))).toBe('template_schema_invalid');
    expect(codeOf(() => compileDataSchema({ pattern: '(' }))).toBe('template_schema_invalid');
  });
});

describe('schemas compiled one after another', () => {
  it('compile each schema on its own: the same $id in different schemas, and after one that claims a meta-schema id', () => {
    for (let index = 0; index < 5; index += 1) {
      const validator = compileDataSchema({ $id: 'https://example.com/invoice', type: 'object', properties: { n: { const: index } } });
      expect(validator?.({ n: index })).toBe(true);
      expect(validator?.({ n: index + 1 })).toBe(false);
    }
    expect(codeOf(() => compileDataSchema({ $id: 'https://json-schema.org/draft/2020-12/schema', type: 'string' }))).toBe('template_schema_invalid');
    expect(compileDataSchema({ type: 'object', required: ['title'] })?.({ title: 'x' })).toBe(true);
  });
});

describe('schema size and complexity', () => {
  it('refuses schemas over 131,072 bytes', () => {
    expect(codeOf(() => compileDataSchema({ description: 'x'.repeat(131_072) }))).toBe('template_schema_too_large');
  });

  it('refuses too many subschemas, deep nesting, explosive patterns and unbounded uniqueItems', () => {
    const many = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1_001 }, (_, index) => [`p${index}`, { type: 'string' }])) };
    expect(codeOf(() => compileDataSchema(many))).toBe('template_schema_complexity');
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 40; level++) deep = { items: deep };
    expect(codeOf(() => compileDataSchema(deep))).toBe('template_schema_complexity');
    expect(codeOf(() => compileDataSchema({ pattern: '(a)\\1' }))).toBe('template_schema_complexity');
    expect(codeOf(() => compileDataSchema({ pattern: 'a'.repeat(513) }))).toBe('template_schema_complexity');
    expect(codeOf(() => compileDataSchema({ type: 'array', uniqueItems: true }))).toBe('template_schema_complexity');
    expect(codeOf(() => compileDataSchema({ type: 'array', uniqueItems: true, maxItems: 1_000 }))).toBeUndefined();
    expect(codeOf(() => compileDataSchema({ $defs: { loop: { $ref: '#/$defs/loop' } }, $ref: '#/$defs/loop' }))).toBe('template_schema_complexity');
  });

  it('stops a validation that runs away (catastrophic backtracking) with template_schema_complexity', () => {
    const validator = compileDataSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    const started = Date.now();
    expect(codeOf(() => validateData(validator, { code: `${'a'.repeat(40)}!` }))).toBe('template_schema_complexity');
    // unguarded, this pattern takes about 2^40 steps
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('data errors', () => {
  const schema = {
    type: 'object',
    required: ['customer', 'items'],
    properties: {
      customer: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 5 }, email: { type: 'string', format: 'email' } } },
      items: { type: 'array', minItems: 1, items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } },
      plan: { enum: ['a', 'b'] },
      code: { type: 'string', pattern: '^[A-Z]+$' },
      'a/b~c': { type: 'number' },
      extra: { not: { type: 'null' } },
    },
  };

  it('maps keywords to the fixed reasons with data JSON Pointers and never the value', () => {
    expect(dataErrors(schema, { customer: { name: 'Ann' }, items: [{ qty: 1 }] })).toBeUndefined();
    expect(dataErrors(schema, {})).toEqual([
      { field: 'data/customer', reason: 'A required value is missing.' },
      { field: 'data/items', reason: 'A required value is missing.' },
    ]);
    const details = dataErrors(schema, {
      customer: { name: 'SECRET-TOO-LONG', email: 'not-an-email' },
      items: [{ qty: 0 }, { qty: 'two' }],
      plan: 'c',
      code: 'lower',
      'a/b~c': 'x',
      extra: null,
    });
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'data/customer/name', reason: 'Use a shorter value.' },
        { field: 'data/customer/email', reason: 'Use the required format.' },
        { field: 'data/items/0/qty', reason: 'Use a number within the allowed range.' },
        { field: 'data/items/1/qty', reason: 'Use the expected value type.' },
        { field: 'data/plan', reason: 'Choose an allowed value.' },
        { field: 'data/code', reason: 'Use the required format.' },
        { field: 'data/a~1b~0c', reason: 'Use the expected value type.' },
        { field: 'data/extra', reason: 'Check this value against its data rule.' },
      ]),
    );
    expect(JSON.stringify(details)).not.toContain('SECRET');
    expect(dataErrors(schema, { customer: { name: '' }, items: [] })).toEqual([
      { field: 'data/customer/name', reason: 'Add a value.' },
      { field: 'data/items', reason: 'Add a value.' },
    ]);
  });

  it('keeps at most 16 details and cuts pointers at 256 UTF-8 bytes', () => {
    const wide = { type: 'object', additionalProperties: { type: 'string' } };
    const data = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${index}`, index]));
    expect(dataErrors(wide, data)).toHaveLength(16);
    const key = 'é'.repeat(200);
    const [detail] = dataErrors(wide, { [key]: 1 }) ?? [];
    expect(Buffer.byteLength(detail!.field.slice('data'.length), 'utf8')).toBeLessThanOrEqual(256);
    expect(detail!.field.length).toBeLessThanOrEqual(260);
    expect(detail!.field.startsWith('data/éé')).toBe(true);
  });
});
