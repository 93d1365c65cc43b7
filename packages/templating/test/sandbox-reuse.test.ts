// A group's rows (one request, one account, one source) may share a sandbox, one row after
// another: each row still gets its own output from its own data, a failed row hands nothing
// on, and a shared sandbox holds nothing of the rows it has evaluated.
import { describe, expect, it } from 'vitest';
import { evaluateTemplate, TemplateError } from '../src/index.ts';

const row = (source: string, data: Record<string, unknown>, reuse: string, limits?: { memoryBytes: number }) =>
  evaluateTemplate({ source, data, tenant: 'acct_rows', reuse, limits });

describe('rows of one request', () => {
  it("render each row from its own data, a failed row's neighbours unaffected", async () => {
    const source = '{% set seen = [] %}{{ seen.push(name) }}<p>{{ name | upper }} {{ seen | length }}</p>{% if fail %}{{ missing.value }}{% endif %}';
    const outputs: string[] = [];
    for (let index = 0; index < 30; index++) {
      const result = await row(source, { name: `row ${index}`, fail: index === 10 }, 'request-1').catch((error: unknown) => error);
      if (index === 10) {
        expect(result).toBeInstanceOf(TemplateError);
        continue;
      }
      outputs.push((result as { html: string }).html);
    }
    // push answers the list's new length: one name in it, in every row
    expect(outputs).toEqual(Array.from({ length: 30 }, (_, index) => `1<p>ROW ${index} 1</p>`).filter((_, index) => index !== 10));
  });

  it('hold nothing of earlier rows: sixty rows of a megabyte each fit a 16 MiB heap', async () => {
    const source = '{% for i in range(0, 1024) %}{{ line }}{% endfor %}';
    for (let index = 0; index < 60; index++) {
      const line = String(index % 10).repeat(1024);
      const { html } = await row(source, { line }, 'request-2', { memoryBytes: 16 * 1024 * 1024 });
      expect(html).toHaveLength(1024 * 1024);
      expect(html.startsWith(String(index % 10))).toBe(true);
    }
  });
});
