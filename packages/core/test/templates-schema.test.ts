// Data schemas of saved templates: drafts, size and complexity bounds, and data errors.
import { DomainError } from '@svc/core';
import type { Format } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFormats } from '../src/templates/data-formats.ts';
import { compileDataSchema, validateData } from '../src/templates/data-schema.ts';
import { invoiceStarter } from '../src/starters/invoice.ts';

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

  it('runs patterns in linear time: a catastrophic pattern answers the data error at once, on a megabyte too', () => {
    const validator = compileDataSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, patternProperties: { '^(b+)+$': { type: 'null' } } });
    const started = Date.now();
    // backtracking takes about 2^40 steps on the first value
    expect(dataErrors({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } }, { code: `${'a'.repeat(40)}!` })).toEqual([
      { field: 'data/code', reason: 'Use the required format.' },
    ]);
    expect(codeOf(() => validateData(validator, { code: `${'a'.repeat(1_000_000)}!`, [`${'b'.repeat(100_000)}!`]: 1 }))).toBe('template_data_invalid');
    expect(codeOf(() => validateData(validator, { code: 'a'.repeat(1_000_000), [`${'b'.repeat(100_000)}`]: null }))).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses patterns RE2 cannot run (backreferences, lookaround) with template_schema_complexity naming where they are', () => {
    const refusal = (schema: unknown) => {
      try {
        compileDataSchema(schema);
      } catch (error) {
        if (error instanceof DomainError) return { code: error.code, details: error.details };
        throw error;
      }
      return undefined;
    };
    for (const pattern of ['(a)\\1', '(?<x>a)\\k<x>', '(?=a)a', 'a(?!b)', '(?<=a)b', '(?<!a)b', 'a{1001}']) {
      expect(refusal({ type: 'object', properties: { code: { pattern } } }), pattern).toEqual({
        code: 'template_schema_complexity',
        details: [{ field: 'schema/properties/code/pattern', reason: 'invalid value' }],
      });
    }
    // a patternProperties key is the pattern: the detail names the object, not the key
    expect(refusal({ items: [{ patternProperties: { '(?=secret)': {} } }] })).toEqual({
      code: 'template_schema_complexity',
      details: [{ field: 'schema/items/0/patternProperties', reason: 'invalid value' }],
    });
    expect(refusal({ properties: { 'a/b': { pattern: '(' } } })).toEqual({ code: 'template_schema_invalid', details: [{ field: 'schema/properties/a~1b/pattern', reason: 'invalid value' }] });
    // what RE2 runs as JavaScript does
    const validator = compileDataSchema({ type: 'string', pattern: '^\\p{Lu}[a-z]{2,}\\d?$' });
    expect(validator?.('Ébc1')).toBe(true);
    expect(validator?.('ébc1')).toBe(false);
  });

  it('checks uniqueItems in one pass: 10,000 large distinct items, and equal ones by value', () => {
    const validator = compileDataSchema({ type: 'array', maxItems: 1_000, uniqueItems: true });
    const items = Array.from({ length: 10_000 }, (_, index) => ({ filler: 'x'.repeat(50), index }));
    const started = Date.now();
    expect(codeOf(() => validateData(validator, items))).toBe('template_data_invalid');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(validator?.([{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }])).toBe(false);
    expect(validator?.([{ a: 1 }, { a: 1.5 }, 'x', 1])).toBe(true);
  });
});

describe('a schema\'s outcome does not depend on the machine\'s load (every core busy with other processes)', () => {
  const busy: ChildProcess[] = [];
  beforeAll(async () => {
    for (let core = 0; core < availableParallelism(); core += 1) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterAll(() => {
    for (const child of busy) child.kill('SIGKILL');
  });

  it('copies of the Invoice starter\'s schema compile (or are refused as overloaded), never template_schema_complexity', () => {
    for (let copy = 0; copy < 5; copy += 1) {
      // a new description each time, so no copy comes from the cache of compiled schemas
      const code = codeOf(() => compileDataSchema({ ...invoiceStarter.schema, description: `copy ${copy}` }));
      expect(code === undefined || code === 'overloaded', `copy ${copy}: ${code}`).toBe(true);
    }
  }, 120_000);

  it('a schema over the node bound is still template_schema_complexity, and one $ref target is compiled once however often it is used', () => {
    const many = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1_001 }, (_, index) => [`p${index}`, { type: 'string' }])) };
    expect(codeOf(() => compileDataSchema(many))).toBe('template_schema_complexity');
    const leaf = { type: 'object', properties: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${index}`, { type: 'string', minLength: 1 }])) };
    const reused = { $defs: { leaf }, type: 'object', properties: Object.fromEntries(Array.from({ length: 900 }, (_, index) => [`p${index}`, { $ref: '#/$defs/leaf' }])) };
    const code = codeOf(() => compileDataSchema(reused));
    expect(code === undefined || code === 'overloaded', String(code)).toBe(true);
  }, 120_000);
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

describe('formats', () => {
  const check = (format: Format | undefined, value: string): boolean => {
    if (format instanceof RegExp) return format.test(value);
    if (typeof format === 'function') return (format as (value: string) => boolean)(value);
    if (typeof format === 'object') return format.validate instanceof RegExp ? format.validate.test(value) : (format.validate as (value: string) => boolean)(value);
    return format === true;
  };
  const samples = [
    '', 'P', 'P1D', 'PT', 'PT1H', 'P1W', 'P1DT', 'P1Y2M3DT4H5M6S', 'example.com', 'a'.repeat(253), 'a'.repeat(254), `${'a'.repeat(253)}.`, 'a.'.repeat(127), '-a.com',
    'http://10.0.0.1/', 'http://1.2.3.4/x', 'http://example.com:8080/a?b', 'http://172.16.0.1', 'http://172.32.0.1', 'ftp://ünï.com', 'http://a@10.0.0.1', 'http://u:p@1.2.3.4',
    'http://localhost', 'https://x.y.zz', 'http://169.254.1.1/', 'http://192.168.1.1', 'http://127.0.0.1:3000', 'http://10.0.0.1.com', 'a:b', 'urn:isbn:123', 'http://[::1]/', 'not a uri',
    'mailto:a@b.c', 'QUJD', 'QUJD=', 'QUI=', 'QU=\nQUJD', 'a@b.co', 'a.b@c-d.e', 'a..b@c.d', '1.2.3.4', '256.1.1.1', '::1', '1:2:3:4:5:6:7:8', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
    '/a/b~0', '/a~2', '#/a%20', '0/a', '1#', '{x}', 'http://{a,b}', '2020-01-01', '2020-02-30', '12:00:00Z', '2020-01-01T12:00:00+01:00', '//host/path', 'a"b', '(a)\\1',
  ];

  it("agree with ajv-formats' own checks", () => {
    const formats = dataFormats();
    expect(Object.keys(formats).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of Object.keys(fullFormats)) {
      for (const value of samples) {
        expect([name, value, check(formats[name], value)]).toEqual([name, value, check(fullFormats[name as keyof typeof fullFormats], value)]);
      }
    }
  });

  it('take time linear in the value: a megabyte each', () => {
    const formats = dataFormats();
    const long = 1_000_000;
    const started = performance.now();
    // ajv-formats' own url takes about half a second on the first at 20,000 characters (quadratic)
    for (const [name, value] of [
      ['url', `http://${':'.repeat(long)}!`],
      ['url', `http://${'a-'.repeat(long / 2)}`],
      ['email', `a@${'a'.repeat(long)}!`],
      ['uri', `a://${'@'.repeat(long)}[`],
      ['uri-reference', `${'/'.repeat(long)} `],
      ['hostname', `${'a.'.repeat(long / 2)}!`],
    ] as const) {
      expect(check(formats[name], value)).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
