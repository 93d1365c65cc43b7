import type { Starter } from './starter.ts';

/** The card laid out for one canvas; the square size is the same design with larger type. */
const card = (width: number, height: number, scale: number) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{%- set accent = accent_color | default("#ffb020") -%}
{%- set background = background_color | default("#1d2b64") %}
<meta name="svc-canvas" content="${width}x${height}">
<style>
  * { box-sizing: border-box; }
  body { margin: 0; }
  .card { position: relative; width: ${width}px; height: ${height}px; overflow: hidden; display: flex; flex-direction: column; justify-content: space-between;
    padding: ${Math.round(72 * scale)}px ${Math.round(80 * scale)}px; color: #fff; font-family: "Liberation Sans", Arial, Helvetica, sans-serif;
    background: radial-gradient(circle at 85% 15%, {{ accent }} 0, transparent 45%), linear-gradient(135deg, {{ background }} 0%, #0b1020 100%); }
  .card::after { content: ""; position: absolute; right: ${Math.round(-120 * scale)}px; bottom: ${Math.round(-160 * scale)}px; width: ${Math.round(520 * scale)}px; height: ${Math.round(520 * scale)}px;
    border-radius: 50%; border: ${Math.round(48 * scale)}px solid rgba(255,255,255,0.06); }
  .eyebrow { font-size: ${Math.round(26 * scale)}px; font-weight: 700; letter-spacing: 0.18em; text-transform: uppercase; color: {{ accent }}; }
  h1 { margin: ${Math.round(20 * scale)}px 0 0; font-size: ${Math.round(68 * scale)}px; line-height: 1.08; letter-spacing: -0.02em; max-width: 92%; }
  .subtitle { margin-top: ${Math.round(22 * scale)}px; font-size: ${Math.round(30 * scale)}px; line-height: 1.35; color: rgba(255,255,255,0.78); max-width: 85%; }
  .footer { display: flex; align-items: center; gap: ${Math.round(20 * scale)}px; font-size: ${Math.round(26 * scale)}px; position: relative; z-index: 1; }
  .mark { width: ${Math.round(56 * scale)}px; height: ${Math.round(56 * scale)}px; border-radius: ${Math.round(14 * scale)}px; background: {{ accent }}; color: #0b1020;
    display: flex; align-items: center; justify-content: center; font-weight: 700; font-size: ${Math.round(30 * scale)}px; }
  .footer b { display: block; }
  .footer span { color: rgba(255,255,255,0.65); }
</style>
</head>
<body>
<div class="card" data-svc-page="card" data-svc-page-name="Card">
  <div>
    <div class="eyebrow">{{ eyebrow }}</div>
    <h1>{{ title }}</h1>
    {% if subtitle %}<div class="subtitle">{{ subtitle }}</div>{% endif %}
  </div>
  <div class="footer">
    <div class="mark">{{ (author.name | first) | upper }}</div>
    <div><b>{{ author.name }}</b><span>{{ author.handle | default("") }}</span></div>
  </div>
</div>
</body>
</html>
`;

export const socialCardStarter: Starter = {
  id: 'social-card',
  name: 'Social card',
  description: 'A 1200×630 link preview image with a square 1080×1080 size for feeds.',
  tags: ['social', 'marketing', 'image'],
  inputMode: 'blank',
  source: card(1200, 630, 1),
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['eyebrow', 'title', 'author'],
    properties: {
      eyebrow: { type: 'string', title: 'Eyebrow', maxLength: 40 },
      title: { type: 'string', title: 'Title', minLength: 1, maxLength: 90 },
      subtitle: { type: 'string', title: 'Subtitle', maxLength: 140 },
      accent_color: { type: 'string', title: 'Accent colour', pattern: '^#[0-9a-fA-F]{6}$' },
      background_color: { type: 'string', title: 'Background colour', pattern: '^#[0-9a-fA-F]{6}$' },
      author: {
        type: 'object',
        title: 'Author',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1, maxLength: 60 }, handle: { type: 'string', maxLength: 60 } },
      },
    },
  },
  sampleData: {
    eyebrow: 'Engineering blog',
    title: 'How we render a million invoices a day',
    subtitle: 'Warm browser sandboxes, a fair queue and the numbers behind them.',
    accent_color: '#ffb020',
    background_color: '#1d2b64',
    author: { name: 'Priya Natarajan', handle: '@priya.builds' },
  },
  output: { type: 'image', format: 'png', width: 1200, height: 630 },
  sizes: [{ id: 'square', name: 'Square post', width: 1080, height: 1080, status: 'edited', source: card(1080, 1080, 1.3) }],
};
