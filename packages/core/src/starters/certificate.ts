import type { Starter } from './starter.ts';

const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{%- set colour = accent_color | default("#8a6d1f") %}
<title>Certificate for {{ recipient }}</title>
<style>
  @page { size: A4 landscape; margin: 0; }
  * { box-sizing: border-box; }
  html, body { margin: 0; width: 297mm; height: 210mm; }
  body { font-family: "Liberation Serif", Georgia, "Times New Roman", serif; color: #2d2a26; background: #fffdf7; }
  .frame { position: absolute; inset: 10mm; border: 1.2mm solid {{ colour }}; padding: 3mm; }
  .inner { height: 100%; border: 0.35mm solid {{ colour }}; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; padding: 12mm 24mm; }
  .org { font: 700 10pt/1 "Liberation Sans", Arial, sans-serif; letter-spacing: 0.35em; text-transform: uppercase; color: {{ colour }}; }
  h1 { margin: 8mm 0 2mm; font-size: 40pt; font-weight: 400; letter-spacing: 0.06em; }
  .kind { font: 400 12pt/1 "Liberation Sans", Arial, sans-serif; letter-spacing: 0.3em; text-transform: uppercase; color: #6b645a; }
  .presented { margin-top: 12mm; font-style: italic; font-size: 13pt; color: #6b645a; }
  .name { margin: 4mm 0 3mm; font-size: 34pt; font-style: italic; border-bottom: 0.35mm solid #b8ad9b; padding: 0 12mm 2mm; }
  .reason { max-width: 190mm; font-size: 13pt; line-height: 1.5; }
  .signatures { display: flex; gap: 40mm; margin-top: 16mm; }
  .signature { width: 62mm; border-top: 0.35mm solid #2d2a26; padding-top: 2mm; font: 9.5pt/1.4 "Liberation Sans", Arial, sans-serif; }
  .signature b { display: block; font-size: 10.5pt; }
  .seal { position: absolute; right: 30mm; bottom: 28mm; width: 30mm; height: 30mm; border-radius: 50%; background: {{ colour }}; color: #fff; display: flex; align-items: center; justify-content: center; text-align: center; font: 700 7.5pt/1.2 "Liberation Sans", Arial, sans-serif; letter-spacing: 0.12em; text-transform: uppercase; box-shadow: 0 0 0 1.2mm #fffdf7, 0 0 0 1.6mm {{ colour }}; }
</style>
</head>
<body>
<div class="frame"><div class="inner">
  <div class="org">{{ organisation }}</div>
  <h1>Certificate</h1>
  <div class="kind">{{ kind | default("of completion") }}</div>
  <div class="presented">This certificate is proudly presented to</div>
  <div class="name">{{ recipient }}</div>
  <div class="reason">{{ reason }}</div>
  <div class="signatures">
    {% for person in signatories %}<div class="signature"><b>{{ person.name }}</b>{{ person.role }}</div>{% endfor %}
  </div>
</div></div>
<div class="seal">{{ date }}</div>
</body>
</html>
`;

export const certificateStarter: Starter = {
  id: 'certificate',
  name: 'Certificate',
  description: 'A landscape A4 certificate with a double frame, signatures and a dated seal.',
  tags: ['certificate', 'education', 'pdf'],
  inputMode: 'html',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['organisation', 'recipient', 'reason', 'date', 'signatories'],
    properties: {
      organisation: { type: 'string', title: 'Organisation', minLength: 1, maxLength: 80 },
      kind: { type: 'string', title: 'Kind', maxLength: 60 },
      recipient: { type: 'string', title: 'Recipient', minLength: 1, maxLength: 80 },
      reason: { type: 'string', title: 'Reason', minLength: 1, maxLength: 300 },
      date: { type: 'string', title: 'Date', maxLength: 30 },
      accent_color: { type: 'string', title: 'Accent colour', pattern: '^#[0-9a-fA-F]{6}$' },
      signatories: {
        type: 'array',
        title: 'Signatories',
        maxItems: 3,
        items: {
          type: 'object',
          required: ['name', 'role'],
          properties: { name: { type: 'string', maxLength: 60 }, role: { type: 'string', maxLength: 60 } },
        },
      },
    },
  },
  sampleData: {
    organisation: 'Harbour Academy of Data',
    kind: 'of completion',
    recipient: 'Amara Okafor',
    reason: 'for successfully completing the twelve-week Applied Statistics programme with distinction.',
    date: 'June 2026',
    accent_color: '#8a6d1f',
    signatories: [
      { name: 'Dr. Helen Marsh', role: 'Programme Director' },
      { name: 'Tomás Ruiz', role: 'Head of Faculty' },
    ],
  },
  output: { type: 'pdf', pdf: { format: 'A4', landscape: true, margins: { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' } } },
};
