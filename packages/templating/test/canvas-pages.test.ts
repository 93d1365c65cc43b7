// The canvas-page scanner reads page ids from HTML text, without a browser, so admission can
// refuse unknown ids.
import { describe, expect, test } from 'vitest';
import { findCanvasPages } from '../src/index.ts';

describe('findCanvasPages', () => {
  test('ids and names in document order', () => {
    const html = `<main>
      <section data-svc-page="cover" data-svc-page-name="Cover">a</section>
      <div><article data-svc-page='inner-1'>b</article></div>
      <section DATA-SVC-PAGE=back data-svc-page-name="Back &amp; end">c</section>
    </main>`;
    expect(findCanvasPages(html)).toEqual([
      { id: 'cover', name: 'Cover' },
      { id: 'inner-1', name: null },
      { id: 'back', name: 'Back & end' },
    ]);
  });

  test('what the DOM would not contain is not a page', () => {
    const html = [
      '<!-- <div data-svc-page="commented"></div> -->',
      '<script>const s = \'<div data-svc-page="in-script"></div>\'</script>',
      '<style>/* <div data-svc-page="in-style"> */</style>',
      '<textarea><div data-svc-page="in-textarea"></div></textarea>',
      '<template><div data-svc-page="in-template"></div></template>',
      '<div data-page="not-ours" title=\'data-svc-page="in-attribute"\'></div>',
      '<!--><div data-svc-page="after-empty-comment"></div>',
      '<div data-svc-page="real"></div>',
    ].join('\n');
    expect(findCanvasPages(html).map((page) => page.id)).toEqual(['after-empty-comment', 'real']);
  });

  test('the first of repeated attributes wins, entities are decoded, odd spacing is fine', () => {
    const html = '<div\n  data-svc-page = "first"\tdata-svc-page="second" data-svc-page-name=Plain></div><p data-svc-page="a&#45;b&#x5f;c">';
    expect(findCanvasPages(html)).toEqual([
      { id: 'first', name: 'Plain' },
      { id: 'a-b_c', name: null },
    ]);
  });

  test('no pages, unterminated markup', () => {
    expect(findCanvasPages('<p>plain</p>')).toEqual([]);
    expect(findCanvasPages('<div data-svc-page="x"')).toEqual([{ id: 'x', name: null }]);
    expect(findCanvasPages('<script>never closed <div data-svc-page="y">')).toEqual([]);
  });
});
