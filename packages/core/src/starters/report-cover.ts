import type { Starter } from './starter.ts';

const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{%- set colour = accent_color | default("#0f4c81") %}
<title>{{ title }}</title>
<style>
  @page {
    size: A4;
    margin: 0 0 14mm;
    {% if confidential %}@bottom-center { content: "Confidential: not for distribution"; font: 700 7.5pt/1 "Liberation Sans", Arial, sans-serif; letter-spacing: 0.2em; text-transform: uppercase; color: {{ colour }}; }{% endif %}
  }
  * { box-sizing: border-box; }
  html, body { margin: 0; width: 210mm; height: 283mm; }
  body { position: relative; overflow: hidden; font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #102a43; background: #fff; }
  .band { position: absolute; left: 0; top: 0; width: 100%; height: 128mm; overflow: hidden; background: {{ colour }}; }
  .band::before { content: ""; position: absolute; right: -40mm; top: -30mm; width: 140mm; height: 140mm; border-radius: 50%; background: rgba(255,255,255,0.08); }
  .band::after { content: ""; position: absolute; left: 0; bottom: 0; width: 100%; height: 22mm; background: linear-gradient(to right, rgba(255,255,255,0.18) 0 33%, rgba(255,255,255,0.08) 33% 66%, rgba(0,0,0,0.08) 66%); }
  .org { position: absolute; left: 22mm; top: 22mm; color: #fff; font-size: 11pt; font-weight: 700; letter-spacing: 0.3em; text-transform: uppercase; }
  .content { position: absolute; left: 22mm; right: 22mm; top: 150mm; }
  .kind { font-size: 11pt; font-weight: 700; letter-spacing: 0.25em; text-transform: uppercase; color: {{ colour }}; }
  h1 { margin: 6mm 0 0; font-size: 38pt; line-height: 1.08; letter-spacing: -0.015em; }
  .subtitle { margin-top: 6mm; font-size: 15pt; line-height: 1.4; color: #486581; max-width: 150mm; }
  .details { position: absolute; left: 22mm; right: 22mm; bottom: 8mm; display: flex; justify-content: space-between; padding-top: 6mm; border-top: 0.5mm solid #d9e2ec; font-size: 10pt; color: #486581; }
  .details b { display: block; color: #102a43; font-size: 11pt; margin-top: 1mm; }
  .confidential { position: absolute; right: 22mm; top: 22mm; color: #fff; font-size: 8.5pt; letter-spacing: 0.2em; text-transform: uppercase; border: 0.3mm solid rgba(255,255,255,0.7); padding: 1.5mm 3mm; border-radius: 1mm; }
</style>
</head>
<body>
<div class="band"></div>
<div class="org">{{ organisation }}</div>
{% if confidential %}<div class="confidential">Confidential</div>{% endif %}
<div class="content">
  <div class="kind">{{ kind | default("Annual report") }}</div>
  <h1>{{ title }}</h1>
  {% if subtitle %}<div class="subtitle">{{ subtitle }}</div>{% endif %}
</div>
<div class="details">
  <div>Prepared by<b>{{ author }}</b></div>
  <div>Period<b>{{ period }}</b></div>
  <div>Published<b>{{ published_on }}</b></div>
</div>
</body>
</html>
`;

export const reportCoverStarter: Starter = {
  id: 'report-cover',
  name: 'Report cover',
  description: 'An A4 cover page for reports and proposals with a colour band and key details.',
  tags: ['report', 'business', 'pdf'],
  inputMode: 'html',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['organisation', 'title', 'author', 'period', 'published_on'],
    properties: {
      organisation: { type: 'string', title: 'Organisation', minLength: 1, maxLength: 60 },
      kind: { type: 'string', title: 'Kind', maxLength: 40 },
      title: { type: 'string', title: 'Title', minLength: 1, maxLength: 100 },
      subtitle: { type: 'string', title: 'Subtitle', maxLength: 200 },
      author: { type: 'string', title: 'Prepared by', maxLength: 80 },
      period: { type: 'string', title: 'Period', maxLength: 40 },
      published_on: { type: 'string', title: 'Published', maxLength: 40 },
      accent_color: { type: 'string', title: 'Accent colour', pattern: '^#[0-9a-fA-F]{6}$' },
      confidential: { type: 'boolean', title: 'Confidential' },
    },
  },
  sampleData: {
    organisation: 'Meridian Energy',
    kind: 'Annual report',
    title: 'Sustainability and Performance 2025',
    subtitle: 'Progress on our net-zero roadmap, grid investments and community programmes.',
    author: 'Strategy & Reporting Office',
    period: 'January – December 2025',
    published_on: 'April 2026',
    accent_color: '#0f4c81',
    confidential: true,
  },
  output: { type: 'pdf', pdf: { format: 'A4', margins: { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' } } },
};
