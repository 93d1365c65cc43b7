import { beforeAll, describe, expect, it } from 'vitest';
import {
  TemplateError,
  canonicalJson,
  checkTemplateData,
  defaultTemplateLimits,
  evaluateTemplate,
  warmTemplateSandbox,
} from '../src/index.ts';
import { expectRefused, refusal, render } from './template-support.ts';

beforeAll(async () => {
  warmTemplateSandbox();
  await render('warm');
});

describe('syntax errors carry 1-based line and column', () => {
  it('points at the unexpected token', async () => {
    await expectRefused('<p>\n  {% for %}\n</p>', 'template_syntax_error', { line: 2, column: 10 });
    await expectRefused('{{ a b }}', 'template_syntax_error', { line: 1, column: 6 });
    await expectRefused('ok\n{% endfor %}', 'template_syntax_error', { line: 2, column: 4 });
  });

  it('points at the end of the source when the parser runs out of input', async () => {
    await expectRefused('<p>\n{{ name', 'template_syntax_error', { line: 2, column: 8 });
    await expectRefused('{% if x %}open', 'template_syntax_error', { line: 1, column: 15 });
    await expectRefused('{# never closed', 'template_syntax_error', { line: 1, column: 16 });
  });

  it('refuses unknown filters at the filter name', async () => {
    await expectRefused('x\n{{ total | money }}', 'template_syntax_error', { data: { total: 1 }, line: 2, column: 12 });
  });

  it('refuses include, import, from-import and extends at the tag', async () => {
    await expectRefused('<p>\n{% include "header.html" %}', 'template_syntax_error', { line: 2, column: 4 });
    await expectRefused('{% import "forms.html" as forms %}', 'template_syntax_error', { line: 1, column: 4 });
    await expectRefused('{% from "forms.html" import field %}', 'template_syntax_error', { line: 1, column: 4 });
    await expectRefused('{% extends "base.html" %}{% block a %}{% endblock %}', 'template_syntax_error', { line: 1, column: 4 });
    await expectRefused('{% include name %}', 'template_syntax_error', { data: { name: '/etc/passwd' } });
  });

  it('refuses other names that start with a digit', async () => {
    await expectRefused('{{ 1x }}', 'template_syntax_error', { line: 1, column: 4 });
  });
});

describe('run-time errors', () => {
  it('reports undefined variables as missing data at the output tag', async () => {
    const { error } = await expectRefused('<p>\n  {{ customer.name }}</p>', 'template_missing_data', { line: 2, column: 3 });
    expect(error.reason).toBe('Declare this variable before using it.');
    await expectRefused('{{ missing }}', 'template_missing_data', { line: 1, column: 1 });
    await expectRefused('{{ format(1) }}', 'template_missing_data', { line: 1, column: 10 });
    await expectRefused('{{ items | join(",") }}', 'template_missing_data', { line: 1, column: 12 });
  });

  it('names the missing variable as the source writes it', async () => {
    const named = async (source: string, data: Record<string, unknown> = {}) => (await expectRefused(source, 'template_missing_data', { data })).error.variable;
    expect(await named('<p>\n  {{ customer.name }}</p>')).toBe('customer.name');
    expect(await named('{{ customer["name"] }}', { customer: {} })).toBe('customer.name');
    expect(await named('{{ items[0].price }}', { items: [{}] })).toBe('items[0].price');
    expect(await named('{{ format(1) }}')).toBe('format');
    expect(await named('{{ items | join(",") }}')).toBe('items');
    expect(await named('{% for row in rows %}{{ row.total }}{% endfor %}', { rows: [{}] })).toBe('row.total');
    // no name for what is not a plain path, and never more than the path itself
    expect(await named('{{ customer[key] }}', { customer: {}, key: 'a' })).toBeUndefined();
    expect(await named('{{ customer["a b"] }}', { customer: {} })).toBeUndefined();
  });

  it('reports filters given the wrong type of input at the filter', async () => {
    const cases: [string, Record<string, unknown>, number, number][] = [
      ['{{ 5 | upper }}', {}, 1, 8],
      ['x\n{{ "x" | round }}', {}, 2, 10],
      ['{{ obj | join(", ") }}', { obj: { a: 1 } }, 1, 10],
      ['{{ "abc" | dictsort }}', {}, 1, 12],
      ['{{ flag | first }}', { flag: true }, 1, 11],
      ['{{ n | list }}', { n: 42 }, 1, 8],
    ];
    for (const [source, data, line, column] of cases) {
      const { error } = await expectRefused(source, 'template_invalid_filter_input', { data, line, column });
      expect(error.reason).toBe('Use the expected value type.');
    }
  });

  it('reports other failures as evaluation errors', async () => {
    const { error } = await expectRefused('{{ price.toFixed(2) }}\n{{ total() }}', 'template_evaluation_error', {
      data: { price: 2, total: 5 },
      line: 2,
      column: 9,
    });
    expect(error.reason).toBe('invalid value');
  });

  it('fails on output over the limit', async () => {
    const { error } = await expectRefused('{% for i in range(0, 50) %}<p>{{ i }}</p>{% endfor %}', 'template_output_limit', {
      limits: { outputChars: 100 },
    });
    expect(error.reason).toBe('Use a shorter value.');
    expect(await render('{% for i in range(0, 5) %}<p>{{ i }}</p>{% endfor %}', {}, { outputChars: 100 })).toHaveLength(40);
  });

  it('fails on macro nesting over renderDepth', async () => {
    const source = '{% macro nest(n) %}{% if n > 0 %}({{ nest(n - 1) }}){% endif %}{% endmacro %}{{ nest(depth) }}';
    expect(await render(source, { depth: 2 }, { renderDepth: 3 })).toBe('(())');
    await expectRefused(source, 'template_depth_limit', { data: { depth: 3 }, limits: { renderDepth: 3 } });
  });
});

describe('refusals stricter than stock nunjucks say their one-line fix (docs/templates.md, Porting from Nunjucks)', () => {
  const fixOf = async (source: string, code: Parameters<typeof expectRefused>[1], data: Record<string, unknown> = {}) =>
    (await expectRefused(source, code, { data })).error.fix;

  it('a missing value: give it, default it, or test it', async () => {
    expect(await fixOf('<p>\n  {{ customer.name }}</p>', 'template_missing_data')).toBe(
      'Give customer.name in the data, or write {{ customer.name | default("") }}, or test it with {% if customer.name is defined %}.',
    );
    // no plain name: the same fix in general words
    expect(await fixOf('{{ customer[key] }}', 'template_missing_data', { customer: {}, key: 'a' })).toBe(
      'Give it in the data, or follow it with | default(""), or test it with "is defined" in an if.',
    );
  });

  it('a filter given undefined: a default of the type the filter takes, before it', async () => {
    expect(await fixOf('{{ maybe | upper }}', 'template_missing_data')).toContain('{{ maybe | default("") | upper }}');
    expect(await fixOf('{{ nothing | truncate(3) }}', 'template_missing_data')).toContain('{{ nothing | default("") | truncate }}');
    expect(await fixOf('{{ rows | join(", ") }}', 'template_missing_data')).toContain('{{ rows | default([]) | join }}');
    expect(await fixOf('{{ n | round }}', 'template_missing_data')).toContain('{{ n | default(0) | round }}');
    // first of an empty default would be undefined again: only the test helps
    expect(await fixOf('{{ rows | first }}', 'template_missing_data')).toBe(
      'Give rows in the data, or test it with {% if rows is defined %}{{ rows | first }}{% endif %}.',
    );
    // each fix renders as written
    expect(await render('{{ maybe | default("") | upper }}|{{ rows | default([]) | join(", ") }}|{{ n | default(0) | round }}')).toBe('||0');
    expect(await render('{% if rows is defined %}{{ rows | first }}{% endif %}')).toBe('');
  });

  it('groupby over items missing the attribute, loader tags, names starting with a digit, unknown filters, wrong input types', async () => {
    const groupby = '{% for kind, rows in items | groupby("kind") %}{{ kind }}{% endfor %}';
    expect(await fixOf(groupby, 'template_invalid_filter_input', { items: [{ kind: 'a' }, {}] })).toContain('{{ items | selectattr("kind") | groupby("kind") }}');
    expect(await render('{% for kind, rows in items | selectattr("kind") | groupby("kind") %}{{ kind }}{% endfor %}', { items: [{ kind: 'a' }, {}] })).toBe('a');
    expect(await render(groupby, { items: [{ kind: 'a' }, { kind: null }] })).toBe('anull');
    expect(await fixOf('{% include "header.html" %}', 'template_syntax_error')).toMatch(/^include, import and extends are not available/);
    expect(await fixOf('{% extends "base.html" %}', 'template_syntax_error')).toMatch(/^include, import and extends are not available/);
    expect(await fixOf('{{ 1x }}', 'template_syntax_error')).toMatch(/cannot start with a digit/);
    expect(await fixOf('{{ total | money }}', 'template_syntax_error', { total: 1 })).toMatch(/built-in or formatting filter/);
    expect(await fixOf('{{ 5 | upper }}', 'template_invalid_filter_input')).toContain('{{ value | string | upper }}');
    expect(await render('{{ 5 | string | upper }}')).toBe('5');
    expect(await fixOf('{{ "x" | round }}', 'template_invalid_filter_input')).toContain('{{ value | float | round }}');
  });

  it('other refusals have no fix to offer', async () => {
    expect(await fixOf('{% for %}', 'template_syntax_error')).toBeUndefined();
    expect(await fixOf('{{ total() }}', 'template_evaluation_error', { total: 5 })).toBeUndefined();
    expect(new TemplateError('template_missing_data', { variable: 'a', kind: 'no such kind' }).fix).toBeUndefined();
  });
});

describe('input limits', () => {
  it('refuses source over sourceBytes, counted in UTF-8 bytes', async () => {
    const source = 'é'.repeat(defaultTemplateLimits.sourceBytes / 2 + 1);
    const { error } = await expectRefused(source, 'template_source_limit');
    expect(error.reason).toBe('Use a shorter value.');
    await expectRefused('x'.repeat(11), 'template_source_limit', { limits: { sourceBytes: 10 } });
  });

  it('refuses data nested deeper than dataDepth, with a pointer to it', async () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < defaultTemplateLimits.dataDepth; level += 1) deep = { next: deep };
    const { error } = await expectRefused('{{ 1 }}', 'template_data_depth_limit', { data: deep });
    expect(error.pointer).toBe(`/${Array(defaultTemplateLimits.dataDepth).fill('next').join('/')}`);
    expect(() => checkTemplateData({ a: [[1]] }, { dataDepth: 2 })).toThrow(TemplateError);
    expect(() => checkTemplateData({ a: [1] }, { dataDepth: 2 })).not.toThrow();
  });

  it('refuses collections over dataCollection', async () => {
    const { error } = await expectRefused('{{ 1 }}', 'template_data_collection_limit', {
      data: { rows: Array.from({ length: defaultTemplateLimits.dataCollection + 1 }, () => 0) },
    });
    expect(error.pointer).toBe('/rows');
    expect(error.reason).toBe('Use a shorter value.');
    const wide = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`k${index}`, index]));
    expect(() => checkTemplateData({ a: { 'x/y~z': wide } }, { dataCollection: 10 })).toThrow(
      expect.objectContaining({ code: 'template_data_collection_limit', pointer: '/a/x~1y~0z' }),
    );
  });

  it('refuses data whose canonical JSON is over dataBytes', async () => {
    const { error } = await expectRefused('{{ 1 }}', 'template_data_limit', { data: { blob: 'x'.repeat(defaultTemplateLimits.dataBytes) } });
    expect(error.reason).toBe('Use a shorter value.');
    // {"a":"é"} is 10 bytes in UTF-8.
    expect(() => checkTemplateData({ a: 'é' }, { dataBytes: 10 })).not.toThrow();
    expect(() => checkTemplateData({ a: 'é' }, { dataBytes: 9 })).toThrow(expect.objectContaining({ code: 'template_data_limit' }));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level and follows JSON.stringify value rules', () => {
    const value = { b: [3, { z: 1, a: undefined, y: null }], a: 'é"', c: Number.NaN, d: new Date(0), e: () => 1 };
    expect(canonicalJson(value)).toBe('{"a":"é\\"","b":[3,{"y":null,"z":1}],"c":null,"d":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe('nothing exposed carries source (but a missing variable\'s name), data or evaluator prose', () => {
  it('keeps messages, reasons and properties to fixed strings', async () => {
    const secret = 'S3CRET-7f3a';
    const cases = [
      { source: `{{ ${secret.replace('-', '_')} }}`, data: {} },
      { source: `{% for %}${secret}`, data: {} },
      { source: `{{ value | round }} ${secret}`, data: { value: secret } },
      { source: `{{ value.nope() }}`, data: { value: { secret } } },
      { source: `{% include "${secret}" %}`, data: {} },
      { source: `{{ ''.constructor.constructor('throw new Error("${secret}")')() }}`, data: {} },
      { source: `{{ 1 }}`, data: { [secret]: 'x'.repeat(defaultTemplateLimits.dataBytes) } },
    ];
    for (const input of cases) {
      const { error } = await refusal(input);
      // of the source, only a missing variable's name, in `variable` and the fix that names it
      if (input === cases[0]) expect(error.variable).toBe(secret.replace('-', '_'));
      if (input === cases[0]) expect(error.fix).toContain(`{{ ${secret.replace('-', '_')} | default("") }}`);
      const { variable: _named, fix, ...rest } = error;
      if (input !== cases[0]) expect(fix ?? '').not.toContain(secret.replace('-', '_'));
      const exposed = [error.message, error.reason, error.name, error.stack ?? '', JSON.stringify(rest), String(error)].join('\n');
      expect(exposed).not.toContain(secret);
      expect(exposed).not.toContain(secret.replace('-', '_'));
      expect(error.message).toBe(error.code);
    }
  });

  it('rejects bad arguments as programming errors, not template errors', async () => {
    await expect(evaluateTemplate({ source: 'x', data: {}, limits: { timeMs: 0 } })).rejects.toThrow(RangeError);
    await expect(evaluateTemplate({ source: 'x', data: [] as unknown as Record<string, unknown> })).rejects.toThrow(TypeError);
  });
});
