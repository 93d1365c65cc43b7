// Strings cross into and out of the QuickJS sandbox as C strings, which end at the first NUL:
// the sandbox refuses such a string rather than evaluate or answer a cut copy of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { warmTemplateSandbox } from '../src/index.ts';
import { expectRefused, render } from './template-support.ts';

beforeAll(async () => {
  warmTemplateSandbox();
  await render('warm');
});

describe('the sandbox boundary', () => {
  it('refuses output holding U+0000 instead of cutting the document at it', async () => {
    await expectRefused('<p>{{ a }}</p><p>after</p>', 'template_evaluation_error', { data: { a: 'x\u0000y' } });
    await expectRefused('{% for item in list %}{{ item }}{% endfor %}', 'template_evaluation_error', { data: { list: ['a', '\u0000'] } });
  });

  it('refuses a source holding U+0000 instead of compiling the part before it', async () => {
    await expectRefused('<p>before</p>\u0000<p>{{ a }}</p>', 'template_evaluation_error', { data: { a: 'x' } });
  });

  it('carries text beyond the BMP through unchanged', async () => {
    expect(await render('<p>{{ a }} 𝄞</p>', { a: '😀\u00a0é' })).toBe('<p>😀\u00a0é 𝄞</p>');
  });
});
