// The source side of adapt: markers for the browser, and the browser's inline styles written back
// into the source with everything else, template syntax included, kept as written.
import { describe, expect, it } from 'vitest';
import { adaptedSources, markCanvasSource } from '../src/templates/adapt-source-edits.ts';

const source = `<meta name="svc-canvas" content="800x600"><style>.page { width: 800px; height: 600px; color: {{ brand.colour }} }</style>
<div class="page" data-svc-page="a" style="padding: 20px"><h1 class='t' title='{{ "a" if b > 1 }}'>{{ title }}</h1>{% for item in items %}<p>{{ item }}</p>{% endfor %}</div>`;

describe('adapt source edits', () => {
  it('marks every element by its position in document order', () => {
    const marked = markCanvasSource(source);
    expect(marked.replace(/ data-svc-adapt="\d+"/g, '')).toBe(source);
    expect([...marked.matchAll(/data-svc-adapt="(\d+)"/g)].map((match) => match[1])).toEqual(['0', '1', '2', '3', '4']);
  });

  it('writes each target its own inline styles, canvas-sized style lengths and canvas meta, leaving the rest as written', () => {
    const [wide, tall, empty] = adaptedSources(source, { width: 800, height: 600 }, [{ width: 1200, height: 600 }, { width: 600, height: 1200 }, { width: 400, height: 400 }], [
      { edits: [{ id: '2', style: [['zoom', '1'], ['width', '1200px'], ['padding', '30px']] }] },
      { edits: [{ id: '3', style: [['font-size', '40px']] }] },
      { error: 'resize_no_layout' },
    ]);
    expect(wide).toBe(
      `<meta name="svc-canvas" content="1200x600"><style>.page { width: 1200px; height: 600px; color: {{ brand.colour }} }</style>
<div class="page" data-svc-page="a" style="zoom: 1; width: 1200px; padding: 30px"><h1 class='t' title='{{ "a" if b > 1 }}'>{{ title }}</h1>{% for item in items %}<p>{{ item }}</p>{% endfor %}</div>`,
    );
    // the first target's edits are gone again; only the second's apply
    expect(tall).toContain('<div class="page" data-svc-page="a" style="padding: 20px">');
    expect(tall).toContain(`<h1 style="font-size: 40px" class='t' title='{{ "a" if b > 1 }}'>{{ title }}</h1>`);
    expect(tall).toContain('content="600x1200"');
    expect(tall).toContain('.page { width: 600px; height: 1200px;');
    expect(empty).toEqual({ error: 'resize_no_layout' });
  });
});
