import { moneyMacro } from './money.ts';
import type { Starter } from './starter.ts';

const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Receipt {{ receipt.number }}</title>
<style>
  @page { size: A5; margin: 0; }
  * { box-sizing: border-box; }
  body { margin: 0; background: #f4f1ea; font: 10pt/1.45 "DejaVu Sans Mono", "Liberation Mono", monospace; color: #222; }
  .slip { width: 100mm; margin: 10mm auto; background: #fff; padding: 9mm 8mm 10mm; box-shadow: 0 0.5mm 2mm rgba(0,0,0,0.12); }
  .shop { text-align: center; }
  .shop h1 { margin: 0; font: 700 15pt/1.2 "Liberation Sans", Arial, sans-serif; letter-spacing: 0.04em; text-transform: uppercase; }
  .shop p { margin: 1mm 0 0; font-size: 8.5pt; color: #555; }
  .rule { border: 0; border-top: 1pt dashed #999; margin: 5mm 0; }
  .row { display: flex; justify-content: space-between; gap: 4mm; }
  .row span:last-child { text-align: right; white-space: nowrap; }
  .meta { font-size: 8.5pt; color: #444; }
  .item { margin-bottom: 2mm; }
  .item .qty { color: #666; font-size: 8.5pt; }
  .total { font-weight: 700; font-size: 12pt; }
  .paid { margin-top: 2mm; font-size: 8.5pt; color: #444; }
  .thanks { text-align: center; margin-top: 7mm; font: italic 10pt "Liberation Serif", Georgia, serif; }
  .code { text-align: center; margin-top: 4mm; font-size: 8pt; letter-spacing: 0.3em; color: #666; }
</style>
</head>
<body>
${moneyMacro}
{%- set symbol = receipt.currency_symbol | default("$") -%}
{%- set subtotal = 0 -%}
{%- for item in items %}{% set subtotal = subtotal + item.quantity * item.price %}{% endfor -%}
{%- set tax = subtotal * (receipt.tax_rate | default(0)) / 100 %}
<div class="slip">
  <div class="shop">
    <h1>{{ shop.name }}</h1>
    {% for line in shop.address %}<p>{{ line }}</p>{% endfor %}
  </div>
  <hr class="rule">
  <div class="meta">
    <div class="row"><span>Receipt</span><span>{{ receipt.number }}</span></div>
    <div class="row"><span>Date</span><span>{{ receipt.date }}</span></div>
    {% if receipt.served_by %}<div class="row"><span>Served by</span><span>{{ receipt.served_by }}</span></div>{% endif %}
  </div>
  <hr class="rule">
  {%- for item in items %}
  <div class="item">
    <div class="row"><span>{{ item.name }}</span><span>{{ money(item.quantity * item.price, symbol) }}</span></div>
    {% if item.quantity != 1 %}<div class="qty">{{ item.quantity }} × {{ money(item.price, symbol) }}</div>{% endif %}
  </div>
  {%- endfor %}
  <hr class="rule">
  <div class="row"><span>Subtotal</span><span>{{ money(subtotal, symbol) }}</span></div>
  {% if receipt.tax_rate %}<div class="row"><span>{{ receipt.tax_label | default("Tax") }} {{ receipt.tax_rate }}%</span><span>{{ money(tax, symbol) }}</span></div>{% endif %}
  <div class="row total"><span>Total</span><span>{{ money(subtotal + tax, symbol) }}</span></div>
  <div class="paid"><div class="row"><span>Paid by {{ payment.method }}</span><span>{{ payment.reference | default("") }}</span></div></div>
  <hr class="rule">
  <div class="thanks">{{ thanks | default("Thank you, come again!") }}</div>
  <div class="code">{{ receipt.number }}</div>
</div>
</body>
</html>
`;

export const receiptStarter: Starter = {
  id: 'receipt',
  name: 'Receipt',
  description: 'A till-style receipt on an A5 page: items, tax, total and how it was paid.',
  tags: ['receipt', 'finance', 'pdf'],
  inputMode: 'html',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['shop', 'receipt', 'items', 'payment'],
    properties: {
      shop: {
        type: 'object',
        title: 'Shop',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 80 },
          address: { type: 'array', items: { type: 'string', maxLength: 80 }, maxItems: 4 },
        },
      },
      receipt: {
        type: 'object',
        title: 'Receipt',
        required: ['number', 'date'],
        properties: {
          number: { type: 'string', minLength: 1, maxLength: 40 },
          date: { type: 'string', maxLength: 40 },
          served_by: { type: 'string', maxLength: 60 },
          currency_symbol: { type: 'string', maxLength: 4 },
          tax_label: { type: 'string', maxLength: 20 },
          tax_rate: { type: 'number', minimum: 0, maximum: 100 },
        },
      },
      items: {
        type: 'array',
        title: 'Items',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          required: ['name', 'quantity', 'price'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 60 },
            quantity: { type: 'number', minimum: 0 },
            price: { type: 'number', minimum: 0 },
          },
        },
      },
      payment: {
        type: 'object',
        title: 'Payment',
        required: ['method'],
        properties: { method: { type: 'string', minLength: 1, maxLength: 40 }, reference: { type: 'string', maxLength: 40 } },
      },
      thanks: { type: 'string', maxLength: 120 },
    },
  },
  sampleData: {
    shop: { name: 'Corner Bakery', address: ['8 Mill Lane, Oxford', 'VAT GB 123 4567 89'] },
    receipt: { number: 'R-048213', date: '14 March 2026, 08:42', served_by: 'Maya', currency_symbol: '€', tax_label: 'VAT', tax_rate: 10 },
    items: [
      { name: 'Flat white', quantity: 2, price: 3.4 },
      { name: 'Almond croissant', quantity: 1, price: 3.9 },
      { name: 'Sourdough loaf', quantity: 1, price: 5.5 },
      { name: 'Cinnamon bun', quantity: 3, price: 2.75 },
    ],
    payment: { method: 'card', reference: '**** 4417' },
    thanks: 'Thank you, see you tomorrow!',
  },
  output: { type: 'pdf', pdf: { format: 'A5', margins: { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' } } },
};
