import type { Starter } from './starter.ts';

// One certificate a page, each recipient's name in its own script (Noto covers them all), the
// page numbers in a page-margin box of the document's own CSS, and a bookmark per recipient
// (the svc-pdf-outline meta turns the headings into the PDF outline).
const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{%- set colour = accent_color | default("#1d5c63") %}
<meta name="svc-pdf-outline" content="headings">
<title>{{ organisation }}: certificates</title>
<style>
  @page {
    size: A4 landscape;
    margin: 10mm 10mm 16mm;
    @bottom-center {
      content: "Page " counter(page) " of " counter(pages);
      font: 8.5pt/1 "Noto Sans", sans-serif;
      letter-spacing: 0.08em;
      color: {{ colour }};
    }
  }
  * { box-sizing: border-box; }
  html, body { margin: 0; }
  body {
    font-family: "Noto Serif", "Noto Serif CJK JP", "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK SC",
      "Noto Naskh Arabic", "Noto Sans Arabic", "Noto Serif Devanagari", "Noto Sans Devanagari", "Noto Sans Hebrew", "Noto Sans Thai", serif;
    color: #1f2a2e;
  }
  .certificate { height: 184mm; border: 1mm solid {{ colour }}; padding: 2.5mm; break-after: page; }
  .certificate:last-child { break-after: auto; }
  .inner { height: 100%; border: 0.3mm solid {{ colour }}; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; padding: 10mm 24mm; }
  .org { font: 600 10pt/1 "Noto Sans", sans-serif; letter-spacing: 0.32em; text-transform: uppercase; color: {{ colour }}; }
  .title { margin: 7mm 0 2mm; font-size: 34pt; font-weight: 400; letter-spacing: 0.05em; }
  .presented { margin-top: 9mm; font-style: italic; font-size: 12pt; color: #5b6b70; }
  h2 { margin: 4mm 0 1mm; font-size: 32pt; font-weight: 600; line-height: 1.3; }
  .latin { font: 400 11pt/1.4 "Noto Sans", sans-serif; letter-spacing: 0.12em; color: #5b6b70; min-height: 1.4em; }
  .reason { margin-top: 7mm; max-width: 200mm; font-size: 12.5pt; line-height: 1.5; }
  .footer { display: flex; gap: 36mm; margin-top: 12mm; font: 9.5pt/1.4 "Noto Sans", sans-serif; }
  .footer div { width: 60mm; border-top: 0.3mm solid #1f2a2e; padding-top: 2mm; }
  .footer b { display: block; font-size: 10.5pt; }
</style>
</head>
<body>
{% for person in recipients %}
<section class="certificate" lang="{{ person.language | default('en') }}"><div class="inner">
  <div class="org" lang="en">{{ organisation }}</div>
  <div class="title" lang="en">Certificate of {{ kind | default("completion") }}</div>
  <div class="presented" lang="en">presented to</div>
  <h2 dir="auto">{{ person.name }}</h2>
  <div class="latin" lang="en">{{ person.name_latin | default("") }}</div>
  <div class="reason" lang="en">{{ reason }}</div>
  <div class="footer" lang="en">
    <div>Date<b>{{ date }}</b></div>
    <div>Signed<b>{{ signatory }}</b></div>
  </div>
</div></section>
{% endfor %}
</body>
</html>
`;

export const multilingualCertificateStarter: Starter = {
  id: 'multilingual-certificate',
  name: 'Multilingual certificates',
  description: 'One landscape certificate per recipient, names in any script, page numbers in the footer and a bookmark per name.',
  tags: ['certificate', 'multilingual', 'pdf'],
  inputMode: 'html',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['organisation', 'reason', 'date', 'signatory', 'recipients'],
    properties: {
      organisation: { type: 'string', title: 'Organisation', minLength: 1, maxLength: 80 },
      kind: { type: 'string', title: 'Kind', maxLength: 40 },
      reason: { type: 'string', title: 'Reason', minLength: 1, maxLength: 300 },
      date: { type: 'string', title: 'Date', minLength: 1, maxLength: 30 },
      signatory: { type: 'string', title: 'Signatory', minLength: 1, maxLength: 60 },
      accent_color: { type: 'string', title: 'Accent colour', pattern: '^#[0-9a-fA-F]{6}$' },
      recipients: {
        type: 'array',
        title: 'Recipients',
        minItems: 1,
        maxItems: 200,
        items: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', title: 'Name as written', minLength: 1, maxLength: 80 },
            name_latin: { type: 'string', title: 'Name in Latin letters', maxLength: 80 },
            language: { type: 'string', title: 'Language tag', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' },
          },
        },
      },
    },
  },
  sampleData: {
    organisation: 'Global Summer School of Mathematics',
    kind: 'completion',
    reason: 'for completing the four-week course in Numerical Methods with distinction.',
    date: '14 August 2026',
    signatory: 'Prof. Ingrid Solberg',
    accent_color: '#1d5c63',
    recipients: [
      { name: 'Amara Okafor', language: 'en' },
      { name: '山田 花子', name_latin: 'Yamada Hanako', language: 'ja' },
      { name: 'Ζωή Παπαδοπούλου', name_latin: 'Zoi Papadopoulou', language: 'el' },
      { name: 'محمد الأحمد', name_latin: 'Mohammed Al-Ahmad', language: 'ar' },
      { name: 'अनन्या शर्मा', name_latin: 'Ananya Sharma', language: 'hi' },
      { name: '김민준', name_latin: 'Kim Min-jun', language: 'ko' },
      { name: 'Иван Петров', name_latin: 'Ivan Petrov', language: 'ru' },
    ],
  },
  output: { type: 'pdf', pdf: { format: 'A4', landscape: true, margins: { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' } } },
};
