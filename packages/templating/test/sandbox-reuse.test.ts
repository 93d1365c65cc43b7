// An account's evaluations of one source (a batch's rows, a saved template's renders) may share a
// sandbox, one after another: each still renders from its own data, a failed evaluation hands
// nothing on, a shared sandbox holds nothing of what it evaluated, and what a template changes
// in its VM never reaches another account or another source.
import { describe, expect, it } from 'vitest';
import { evaluateTemplate, TemplateError } from '../src/index.ts';

const evaluate = (source: string, data: Record<string, unknown>, tenant: string | undefined, limits?: { memoryBytes: number }) =>
  evaluateTemplate({ source, data, tenant, limits });

/** Changes the VM's globals through the Function constructor, and tells whether an earlier evaluation did. */
const marking = (mark: string) => `{{ ''.constructor.constructor('var seen = globalThis.mark || "none"; globalThis.mark = "${mark}"; return seen')() }}`;

describe("an account's evaluations of one source", () => {
  it("render each from its own data, a failed one's neighbours unaffected", async () => {
    const source = '{% set seen = [] %}{{ seen.push(name) }}<p>{{ name | upper }} {{ seen | length }}</p>{% if fail %}{{ missing.value }}{% endif %}';
    const outputs: string[] = [];
    for (let index = 0; index < 30; index++) {
      const result = await evaluate(source, { name: `row ${index}`, fail: index === 10 }, 'acct_rows').catch((error: unknown) => error);
      if (index === 10) {
        expect(result).toBeInstanceOf(TemplateError);
        continue;
      }
      outputs.push((result as { html: string }).html);
    }
    // push answers the list's new length: one name in it, in every row
    expect(outputs).toEqual(Array.from({ length: 30 }, (_, index) => `1<p>ROW ${index} 1</p>`).filter((_, index) => index !== 10));
  });

  it('hold nothing of earlier ones: sixty outputs of a megabyte each fit a 16 MiB heap', async () => {
    const source = '{% for i in range(0, 1024) %}{{ line }}{% endfor %}';
    for (let index = 0; index < 60; index++) {
      const line = String(index % 10).repeat(1024);
      const { html } = await evaluate(source, { line }, 'acct_rows', { memoryBytes: 16 * 1024 * 1024 });
      expect(html).toHaveLength(1024 * 1024);
      expect(html.startsWith(String(index % 10))).toBe(true);
    }
  });

  it("never reach another account's evaluations, another source's, or the service's own", async () => {
    // one evaluation after another, so each finds the sandbox the one before it left, if any
    const tenants = ['acct_one', 'acct_two', 'acct_one', undefined, undefined];
    const seen: string[] = [];
    for (const tenant of tenants) seen.push((await evaluate(marking('same'), {}, tenant)).html);
    // acct_one's second evaluation may meet its own first one's change (same account, same
    // source); nothing else ever meets a change
    expect(seen[1]).toBe('none');
    expect(seen[3]).toBe('none');
    expect(seen[4]).toBe('none');
    expect((await evaluate(marking('other') + '<!-- another source -->', {}, 'acct_one')).html).toBe('none<!-- another source -->');
  });
});
