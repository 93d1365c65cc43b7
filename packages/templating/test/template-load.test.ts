// A template's outcome does not depend on the machine's load: the deterministic work budget
// decides, timeMs counts the evaluating thread's CPU time, and wall time alone only ever answers
// overloaded (TemplateOverloadedError), never a template error. Every core is kept busy by other
// processes for the whole file, so a wall-clock deadline would fire here.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateError, TemplateOverloadedError, evaluateTemplate, warmTemplateSandbox } from '../src/index.ts';
import { expectRefused, render } from './template-support.ts';

const busy: ChildProcess[] = [];

beforeAll(async () => {
  warmTemplateSandbox();
  await render('warm');
  for (let core = 0; core < availableParallelism(); core += 1) {
    busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
  // let the busy loops start before anything is measured
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(() => {
  for (const child of busy) child.kill('SIGKILL');
});

/** Some 40,000 loop iterations: well within the 500 work units, about 0.3 s of CPU on an idle core. */
const withinBudget = '{% for i in range(0, 40000) %}{{ i % 7 }}{% endfor %}';

describe('on a machine whose every core is busy', () => {
  it('a template within its work budget succeeds (or is refused as overloaded), never template_timeout', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const started = performance.now();
      try {
        const { html } = await evaluateTemplate({ source: withinBudget, data: { attempt } });
        expect(html).toHaveLength(40_000);
      } catch (error) {
        if (error instanceof TemplateError) throw new Error(`refused as ${error.code} after ${Math.round(performance.now() - started)} ms`);
        expect(error).toBeInstanceOf(TemplateOverloadedError);
      }
    }
  }, 120_000);

  it('a template over its work budget still fails template_work_limit', async () => {
    await expectRefused('{% for a in range(0, 100000) %}{% for b in range(0, 100000) %}{{ a }}{% endfor %}{% endfor %}', 'template_work_limit');
  }, 120_000);

  it('a template that uses more CPU than timeMs (the budget lifted) is still template_timeout', async () => {
    await expectRefused('{{ "".constructor.constructor("while (true) {}")() }}', 'template_timeout', { limits: { workUnits: 1e9, timeMs: 300 } });
  }, 120_000);
});
