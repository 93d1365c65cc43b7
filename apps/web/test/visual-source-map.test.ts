import { describe, expect, it, test } from 'vitest';
import { moveStyle, resizeStyle, type Layer } from '../src/dashboard/templates/visual/layers.ts';
import { applyEdits, brandFontFaceEdit, instrumentSource, setStyleEdit, setTextEdit, sourceElements, styleValue, textContentOf } from '../src/dashboard/templates/visual/source-map.ts';

const source = `{% set tone = "dark" %}
<html><head><style>.a > b { color: red }</style></head>
<body>
<div data-svc-page="card" class="{{ tone }}">
  <!-- <p>not an element</p> -->
  <h1 style="left: 10px;top:20px ; color: {{ colour | default('#000') }}">{{ title }}</h1>
  {% for item in items %}<img src="{{ item.src }}" alt="{% if item.alt %}{{ item.alt }}{% endif %}">{% endfor %}
  <p>Text <b>bold</b></p>
</div>
<footer>outside the page</footer>
</body></html>`;

describe('the visual editor source map', () => {
  it('finds the elements with their places, past nunjucks, comments and style text', () => {
    const elements = sourceElements(source);
    expect(elements.map((element) => element.name)).toEqual(['html', 'head', 'style', 'body', 'div', 'h1', 'img', 'p', 'b', 'footer']);
    const h1 = elements[5]!;
    expect(source.slice(h1.tagStart, h1.tagEnd)).toMatch(/^<h1 style=.*">$/);
    expect(textContentOf(source, h1)).toBe('{{ title }}');
    expect(textContentOf(source, elements[7]!)).toBeNull();
    expect(elements[4]!.pageId).toBe('card');
  });

  it('marks only the elements of canvas pages, each with its index', () => {
    const marked = instrumentSource(source);
    expect(marked).toContain('<div data-svc-layer="4" data-svc-page="card"');
    expect(marked).toContain('<img data-svc-layer="6" src=');
    expect(marked).toContain('<b data-svc-layer="8">');
    expect(marked).toContain('<footer>');
    expect(marked).not.toContain('<body data-svc-layer');
  });

  it('sets, replaces and removes declarations, leaving the rest of the style as written', () => {
    const h1 = sourceElements(source)[5]!;
    const edit = setStyleEdit(source, h1, { left: '35px', top: '60px', width: '300px', color: null, 'font-family': '"Liberation Serif", serif' })!;
    const changed = applyEdits(source, [edit]);
    expect(changed).toContain(`<h1 style="left: 35px;top:60px ; width: 300px; font-family: 'Liberation Serif', serif">`);
    expect(styleValue(changed, sourceElements(changed)[5]!, 'top')).toBe('60px');
    const b = sourceElements(source)[8]!;
    expect(applyEdits(source, [setStyleEdit(source, b, { color: '#e11d48' })!])).toContain('<b style="color: #e11d48">bold</b>');
  });

  it('replaces text content, keeping a typed angle bracket as text', () => {
    const h1 = sourceElements(source)[5]!;
    expect(applyEdits(source, [setTextEdit(h1, '{{ headline }}')!])).toContain('">{{ headline }}</h1>');
    expect(applyEdits(source, [setTextEdit(h1, 'a < b')!])).toContain('">a &lt; b</h1>');
  });

  it('moves positioned layers by left and top, and makes a layer in the flow relative', () => {
    const layer: Layer = { index: 1, kind: 'shape', label: 'div', x: 40, y: 40, width: 200, height: 80, position: 'absolute', left: 40, top: 40, extraWidth: 20, extraHeight: 10 };
    expect(moveStyle(layer, 12.4, -5.6)).toEqual({ left: '52px', top: '34px', right: null, bottom: null });
    expect(moveStyle({ ...layer, position: 'static' }, 10, 5)).toEqual({ position: 'relative', left: '10px', top: '5px' });
    expect(resizeStyle(layer, 0, 0, 260, 110)).toEqual({ width: '240px', height: '100px' });
  });
});

test('a brand kit font chosen for a layer brings the @font-face that loads it in renders, once', () => {
  const source = '<html><head><meta name="svc-brand-kit" content="kit_1"></head><body><div data-svc-page="a">Hi</div></body></html>';
  const edit = brandFontFaceEdit(source, 'Brand Sans', 1)!;
  const withFace = applyEdits(source, [edit]);
  expect(withFace).toContain('<style>@font-face { font-family: "Brand Sans"; src: url({{ brand.fonts[1].src }}) }</style>\n</head>');
  expect(brandFontFaceEdit(withFace, 'Brand Sans', 1)).toBeNull();
  expect(brandFontFaceEdit('<p>No head</p>', 'Brand Sans', 0)).toMatchObject({ from: 0, to: 0 });
});
