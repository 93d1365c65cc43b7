// Known ways out of nunjucks and ways to exhaust the host. Each must end with the expected
// TemplateError quickly, leave the host untouched and leave the next evaluation unaffected.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  TemplateError,
  warmTemplateSandbox,
} from '../src/index.ts';
import { expectRefused, refusal, render } from './template-support.ts';

/** Own property names and a probe of Object.prototype, to prove nothing reached the host. */
function hostPrototypeSnapshot(): string {
  return JSON.stringify({
    object: Object.getOwnPropertyNames(Object.prototype).sort(),
    array: Object.getOwnPropertyNames(Array.prototype).sort(),
    fn: Object.getOwnPropertyNames(Function.prototype).sort(),
    string: Object.getOwnPropertyNames(String.prototype).sort(),
  });
}

// bounds that tell a limit that fired from one that did not (which would run for minutes or
// forever), with room for a machine whose cores are busy with other work
const quickly = 10_000;
// Cases stopped by anything but the clock get a long deadline, so their own limit is what fires
// even on a heavily loaded test machine; they take well under a second on an idle core, and the
// bound allows for load.
const workBound = { timeMs: 20_000 };
const withinBudget = 15_000;
let before = '';

beforeAll(async () => {
  warmTemplateSandbox();
  await render('warm');
});

beforeEach(() => {
  before = hostPrototypeSnapshot();
});

afterEach(async () => {
  expect(hostPrototypeSnapshot()).toBe(before);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  // The sandbox still serves a plain template afterwards.
  expect(await render('{{ ok }}', { ok: 'fine' })).toBe('fine');
});

const fn = (body: string) => `{{ ''.constructor.constructor(${JSON.stringify(body).replaceAll('"', "'")})() }}`;

describe('constructor chains reach only the VM', () => {
  it("''.constructor.constructor('return this')() is the VM's bare global", async () => {
    expect(await render("{{ ''.constructor.constructor('return this')() }}")).toBe('[object Object]');
    const names = (await render(fn('return Object.getOwnPropertyNames(globalThis).join(" ")'))).split(' ');
    expect(names).toContain('Object');
    for (const hostName of ['process', 'require', 'module', 'Buffer', 'global', 'setTimeout', 'fetch', 'console', 'std', 'os', 'nunjucks']) {
      expect(names).not.toContain(hostName);
    }
  });

  it('range.constructor("return process")() finds no process', async () => {
    await expectRefused("{{ range.constructor('return process')() }}", 'template_evaluation_error', { line: 1, column: 21 });
  });

  it('cycler and joiner constructors lead to the same empty VM', async () => {
    expect(await render("{{ cycler.constructor('return typeof process + typeof require')() }}")).toBe('undefinedundefined');
    expect(await render("{{ joiner.constructor.constructor('return typeof globalThis.process')() }}")).toBe('undefined');
  });

  it('require, process, globalThis and import() give nothing', async () => {
    expect(await render(fn('return [typeof require, typeof process, typeof module, typeof exports, typeof __dirname].join()'))).toBe(
      'undefined,undefined,undefined,undefined,undefined',
    );
    // No module loader: the promise never settles and nothing is imported.
    expect(await render(fn('return import("node:fs")'))).toBe('[object Promise]');
    expect(await render(fn('var r = "pending"; import("node:child_process").then(function () { r = "loaded" }, function () { r = "refused" }); return r'))).toBe(
      'pending',
    );
    await expectRefused(fn('return process.mainModule.require("fs")'), 'template_evaluation_error');
  });
});

describe('prototype access and pollution stay inside one VM', () => {
  it('pollution from template code does not reach the host or the next evaluation', async () => {
    expect(await render(fn('Object.prototype.polluted = "yes"; Array.prototype.join = null; globalThis.leak = 1; return "done"'))).toBe('done');
    expect(await render('{% set probe = {} %}{{ probe.polluted is defined }} {{ [1, 2] | join("-") }}')).toBe('false 1-2');
    expect(await render(fn('return typeof globalThis.leak'))).toBe('undefined');
  });

  it('__proto__ and constructor.prototype lookups do not write anywhere', async () => {
    expect(await render('{{ __proto__ }}|{{ "".__proto__ }}|{{ obj.__proto__.x is defined }}', { obj: {} })).toBe('[object Object]||false');
    await render('{% set "a.__proto__.polluted" = 1 %}{% set "b.constructor.prototype.polluted" = 1 %}');
    expect(await render('{% set probe = {} %}{{ probe.polluted is defined }}')).toBe('false');
  });

  it("nunjucks' compiler does not pollute through dotted names", async () => {
    // Stock nunjucks writes Object.prototype.p1 while compiling this.
    const source = '{% macro "a.__proto__.p1"() %}{% endmacro %}{% for x, "a.__proto__.p2" in {} %}{% endfor %}{% set probe = {} %}{{ probe.p1 is defined }}{{ probe.p2 is defined }}';
    expect(await render(source)).toBe('falsefalse');
  });

  it('a __proto__ key in data stays a key', async () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes"}, "name": "x"}') as Record<string, unknown>;
    expect(await render('{{ name }}', data)).toBe('x');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('resource exhaustion ends with a limit error, quickly', () => {
  it('range(0, 1e12) is refused up front as too much work', async () => {
    const { ms } = await expectRefused('{% for i in range(0, 1e12) %}{% endfor %}', 'template_work_limit', { line: 1, column: 18 });
    expect(ms).toBeLessThan(quickly);
  });

  it('an unbounded loop of nested ranges stops at the work budget', async () => {
    const { ms } = await expectRefused(
      '{% for a in range(0, 100000) %}{% for b in range(0, 100000) %}{{ a }}{% endfor %}{% endfor %}',
      'template_work_limit',
      { limits: workBound },
    );
    expect(ms).toBeLessThan(withinBudget);
  });

  it('a JavaScript busy loop stops at the work budget, or at the deadline when the budget is larger', async () => {
    const work = await expectRefused(fn('while (true) {}'), 'template_work_limit', { limits: workBound });
    expect(work.ms).toBeLessThan(quickly);
    const time = await expectRefused(fn('while (true) {}'), 'template_timeout', { limits: { workUnits: 1e9, timeMs: 300 } });
    expect(time.ms).toBeLessThan(quickly);
  });

  it('a built-in that never polls the interrupt handler is cut off by terminating the worker', async () => {
    const { ms } = await expectRefused(fn('return Array.prototype.indexOf.call({ length: 1e15 }, 1)'), 'template_timeout', {
      limits: { timeMs: 300 },
    });
    expect(ms).toBeLessThan(quickly);
  });

  it('deep recursion through a macro stops at renderDepth', async () => {
    const { ms } = await expectRefused('{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}{{ down(0) }}', 'template_depth_limit', {
      line: 1,
      column: 27,
    });
    expect(ms).toBeLessThan(quickly);
  });

  it('deep JavaScript recursion and deep nesting stop at the VM stack limit', async () => {
    const js = await expectRefused(fn('function f() { return f() + 1 } return f()'), 'template_depth_limit', { limits: workBound });
    expect(js.ms).toBeLessThan(withinBudget);
    const nested = await expectRefused(`{{ ${'('.repeat(5_000)}1${')'.repeat(5_000)} }}`, 'template_depth_limit', { limits: workBound });
    expect(nested.ms).toBeLessThan(withinBudget);
  });

  it('huge output stops at the output limit', async () => {
    const chunk = '{% set chunk %}{% for i in range(0, 1000) %}xxxxxxxxxx{% endfor %}{% endset %}';
    const { ms } = await expectRefused(`${chunk}{% for i in range(0, 100000) %}{{ chunk | safe }}{% endfor %}`, 'template_output_limit', {
      limits: workBound,
    });
    expect(ms).toBeLessThan(withinBudget);
    const single = await expectRefused(fn('return "x".repeat(6000000)'), 'template_output_limit', { limits: workBound });
    expect(single.ms).toBeLessThan(withinBudget);
  });

  it('the brief\'s range(0, 1e7) output loop is refused as too much work before it starts', async () => {
    const { ms } = await expectRefused('{% for i in range(0, 1e7) %}xxxxxxxxxx{% endfor %}', 'template_work_limit');
    expect(ms).toBeLessThan(quickly);
  });

  it('string repetition bombs end at the memory or string-size limit', async () => {
    const repeat = await expectRefused("{{ 'x'.repeat(100000000) }}", 'template_work_limit', { limits: workBound });
    expect(repeat.ms).toBeLessThan(withinBudget);
    const doubling = await expectRefused(
      '{% set s = "xxxxxxxxxx" %}{% for i in range(0, 64) %}{% set s = s ~ s %}{% endfor %}{{ s | length }}',
      'template_work_limit',
      { limits: workBound },
    );
    expect(doubling.ms).toBeLessThan(withinBudget);
    const padding = await expectRefused("{{ 'x' | center(200000000) }}", 'template_work_limit', { limits: workBound });
    expect(padding.ms).toBeLessThan(withinBudget);
  });

  it('memory exhaustion ends at the memory limit', async () => {
    const { ms } = await expectRefused(fn('var keep = []; for (;;) keep.push(new Array(100000).fill(1))'), 'template_work_limit', {
      limits: workBound,
    });
    expect(ms).toBeLessThan(withinBudget);
  });

  it('a template that tries to include a file is refused', async () => {
    await expectRefused('{% include "/etc/passwd" %}', 'template_syntax_error', { line: 1, column: 4 });
    await expectRefused('{% include "../../../package.json" ignore missing %}', 'template_syntax_error');
    expect(await render(fn('return typeof XMLHttpRequest + typeof fetch'))).toBe('undefinedundefined');
  });
});
