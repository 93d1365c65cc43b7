import { moneyMacro } from './money.ts';
import type { Starter } from './starter.ts';

const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{%- set accent = accent_color | default("#2f5bea") %}
<title>Invoice {{ invoice.number }}</title>
<style>
  @page {
    size: A4;
    margin: 18mm 18mm 20mm;
    @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8.5pt/1 "Liberation Sans", Arial, sans-serif; color: #7b8794; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; font: 10.5pt/1.5 "Liberation Sans", Arial, Helvetica, sans-serif; color: #1f2933; }
  header { display: flex; justify-content: space-between; align-items: flex-start; }
  .brand { font-size: 20pt; font-weight: 700; letter-spacing: -0.02em; color: {{ accent }}; }
  .brand small { display: block; font-size: 9pt; font-weight: 400; color: #52606d; letter-spacing: 0; }
  h1 { margin: 0; font-size: 26pt; font-weight: 300; letter-spacing: 0.08em; text-transform: uppercase; color: #323f4b; text-align: right; }
  .meta { margin-top: 4mm; text-align: right; font-size: 9.5pt; color: #52606d; }
  .meta b { color: #1f2933; font-weight: 600; }
  .parties { display: grid; grid-template-columns: 1fr 1fr; gap: 10mm; margin: 12mm 0 9mm; }
  .label { font-size: 8pt; font-weight: 700; letter-spacing: 0.12em; text-transform: uppercase; color: {{ accent }}; margin-bottom: 1.5mm; }
  .party p { margin: 0; }
  .party .name { font-weight: 700; font-size: 11.5pt; }
  table { width: 100%; border-collapse: collapse; }
  thead th { font-size: 8pt; letter-spacing: 0.1em; text-transform: uppercase; color: #52606d; text-align: left; padding: 2.5mm 2mm; border-bottom: 1.5pt solid #323f4b; }
  tbody td { padding: 3mm 2mm; border-bottom: 0.5pt solid #d9e2ec; vertical-align: top; }
  tbody tr { break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
  .desc small { display: block; color: #7b8794; font-size: 9pt; }
  .summary { display: flex; align-items: flex-start; margin-top: 5mm; }
  .pay-code { font-size: 8.5pt; color: #52606d; }
  .pay-code svg { display: block; margin-top: 1mm; }
  .totals { margin-left: auto; width: 75mm; }
  .totals div { display: flex; justify-content: space-between; padding: 1.5mm 2mm; }
  .totals .due { margin-top: 2mm; padding: 3mm 2mm; background: {{ accent }}; color: #fff; font-weight: 700; font-size: 12pt; border-radius: 1.5mm; }
  .notes { margin-top: 12mm; display: grid; grid-template-columns: 1fr 1fr; gap: 10mm; font-size: 9pt; color: #52606d; break-inside: avoid; }
  footer { margin-top: 14mm; padding-top: 4mm; border-top: 0.5pt solid #d9e2ec; font-size: 8.5pt; color: #7b8794; text-align: center; }
</style>
</head>
<body>
${moneyMacro}
{%- set symbol = invoice.currency_symbol | default("$") -%}
{%- set subtotal = 0 -%}
{%- for item in items %}{% set subtotal = subtotal + item.quantity * item.unit_price %}{% endfor -%}
{%- set tax = subtotal * (invoice.tax_rate | default(0)) / 100 %}
{%- set due = ((subtotal + tax) * 100) | round / 100 %}
<div class="page">
  <header>
    <div class="brand">{{ seller.name }}<small>{{ seller.tagline | default("") }}</small></div>
    <div>
      <h1>Invoice</h1>
      <div class="meta">
        <div>Number <b>{{ invoice.number }}</b></div>
        <div>Issued <b>{{ invoice.issued_on }}</b></div>
        <div>Due <b>{{ invoice.due_on }}</b></div>
      </div>
    </div>
  </header>

  <section class="parties">
    <div class="party">
      <div class="label">From</div>
      <p class="name">{{ seller.name }}</p>
      {% for line in seller.address %}<p>{{ line }}</p>{% endfor %}
      {% if seller.email %}<p>{{ seller.email }}</p>{% endif %}
    </div>
    <div class="party">
      <div class="label">Bill to</div>
      <p class="name">{{ customer.name }}</p>
      {% for line in customer.address %}<p>{{ line }}</p>{% endfor %}
      {% if customer.email %}<p>{{ customer.email }}</p>{% endif %}
    </div>
  </section>

  <table>
    <thead><tr><th>Description</th><th class="num">Qty</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead>
    <tbody>
      {%- for item in items %}
      <tr>
        <td class="desc">{{ item.description }}{% if item.detail %}<small>{{ item.detail }}</small>{% endif %}</td>
        <td class="num">{{ item.quantity }}</td>
        <td class="num">{{ money(item.unit_price, symbol) }}</td>
        <td class="num">{{ money(item.quantity * item.unit_price, symbol) }}</td>
      </tr>
      {%- endfor %}
    </tbody>
  </table>

  <div class="summary">
    {%- if sepa_transfer and due > 0 %}
    <div class="pay-code">
      <div class="label">Pay by banking app</div>
      {{ { "name": sepa_transfer.beneficiary | default(seller.name), "iban": sepa_transfer.iban, "bic": sepa_transfer.bic | default(""), "amount": due, "text": "Invoice " ~ invoice.number } | epc_qr(size="26mm") }}
    </div>
    {%- endif %}
    <div class="totals">
      <div><span>Subtotal</span><span class="num">{{ money(subtotal, symbol) }}</span></div>
      {% if invoice.tax_rate %}<div><span>Tax ({{ invoice.tax_rate }}%)</span><span class="num">{{ money(tax, symbol) }}</span></div>{% endif %}
      <div class="due"><span>Amount due</span><span class="num">{{ money(subtotal + tax, symbol) }}</span></div>
    </div>
  </div>

  <section class="notes">
    <div><div class="label">Payment</div>{{ payment_instructions | default("Payment is due by the date above.") }}</div>
    <div><div class="label">Notes</div>{{ notes | default("Thank you for your business.") }}</div>
  </section>

  <footer>{{ seller.name }}{% if seller.email %} · {{ seller.email }}{% endif %}{% if seller.website %} · {{ seller.website }}{% endif %}</footer>
</div>
</body>
</html>
`;

const party = {
  type: 'object',
  required: ['name', 'address'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 120 },
    address: { type: 'array', title: 'Address', description: 'One line each, up to six.', items: { type: 'string', maxLength: 120 }, maxItems: 6 },
    email: { type: 'string', title: 'Email address', format: 'email' },
  },
};

export const invoiceStarter: Starter = {
  id: 'invoice',
  name: 'Invoice',
  description: 'An A4 invoice with line items, tax, a highlighted amount due and a SEPA payment QR code.',
  tags: ['invoice', 'finance', 'pdf'],
  inputMode: 'html',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['seller', 'customer', 'invoice', 'items'],
    properties: {
      accent_color: { type: 'string', title: 'Accent colour', description: 'A hex colour such as #2f5bea, for the name, labels and amount due.', pattern: '^#[0-9a-fA-F]{6}$' },
      seller: {
        ...party,
        title: 'Seller',
        properties: { ...party.properties, tagline: { type: 'string', title: 'Tagline', maxLength: 120 }, website: { type: 'string', title: 'Website', maxLength: 120 } },
      },
      customer: { ...party, title: 'Customer' },
      invoice: {
        type: 'object',
        title: 'Invoice',
        required: ['number', 'issued_on', 'due_on'],
        properties: {
          number: { type: 'string', title: 'Invoice number', minLength: 1, maxLength: 40 },
          issued_on: { type: 'string', title: 'Issue date', description: 'As it should read, such as 3 March 2026.', maxLength: 40 },
          due_on: { type: 'string', title: 'Due date', maxLength: 40 },
          currency_symbol: { type: 'string', title: 'Currency symbol', description: 'Written before every amount, such as £ or €.', maxLength: 4 },
          tax_rate: { type: 'number', title: 'Tax rate (%)', description: 'Added to the subtotal; leave it out for none.', minimum: 0, maximum: 100 },
        },
      },
      items: {
        type: 'array',
        title: 'Line items',
        minItems: 1,
        maxItems: 200,
        items: {
          type: 'object',
          required: ['description', 'quantity', 'unit_price'],
          properties: {
            description: { type: 'string', title: 'Description', minLength: 1, maxLength: 200 },
            detail: { type: 'string', title: 'Detail', description: 'A smaller line under the description.', maxLength: 200 },
            quantity: { type: 'number', title: 'Quantity', minimum: 0 },
            unit_price: { type: 'number', title: 'Unit price', minimum: 0 },
          },
        },
      },
      sepa_transfer: {
        type: 'object',
        title: 'SEPA payment QR code',
        description: 'Invoices in euros: an EPC QR code ("GiroCode") of a transfer of the amount due, which banking apps read. Leave it out for other currencies.',
        required: ['iban'],
        properties: {
          beneficiary: { type: 'string', title: 'Beneficiary', description: 'The account holder; the seller\'s name when left out.', maxLength: 70 },
          iban: { type: 'string', title: 'IBAN', minLength: 15, maxLength: 42 },
          bic: { type: 'string', title: 'BIC', maxLength: 11 },
        },
      },
      payment_instructions: { type: 'string', title: 'Payment instructions', description: 'Shown under the totals; a default sentence when left out.', maxLength: 500 },
      notes: { type: 'string', title: 'Notes', maxLength: 500 },
    },
  },
  sampleData: {
    accent_color: '#2f5bea',
    seller: {
      name: 'Northwind Studio',
      tagline: 'Design and engineering',
      address: ['14 Ormond Quay Upper', 'Dublin D07 X2K4', 'Ireland'],
      email: 'billing@northwind.example',
      website: 'northwind.example',
    },
    customer: { name: 'Acme Logistics Ltd', address: ['200 Canal Road', 'Leeds LS12 2PA', 'United Kingdom'], email: 'accounts@acme.example' },
    invoice: { number: 'INV-2026-0142', issued_on: '3 March 2026', due_on: '2 April 2026', currency_symbol: '€', tax_rate: 20 },
    items: [
      { description: 'Discovery workshop', detail: 'Two half-day sessions with the operations team', quantity: 1, unit_price: 1800 },
      { description: 'Dashboard design', detail: 'Wireframes, visual design and prototype', quantity: 24, unit_price: 95 },
      { description: 'Front-end build', quantity: 36, unit_price: 105 },
      { description: 'Hosting (March)', quantity: 1, unit_price: 49.5 },
    ],
    sepa_transfer: { iban: 'IE29 AIBK 9311 5212 3456 78', bic: 'AIBKIE2D' },
    payment_instructions: 'Bank transfer to Northwind Studio, IBAN IE29 AIBK 9311 5212 3456 78, BIC AIBKIE2D, reference INV-2026-0142, or scan the code with a banking app.',
    notes: 'Thank you for working with us. Questions about this invoice: billing@northwind.example.',
  },
  output: { type: 'pdf', pdf: { format: 'A4', margins: { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' } } },
};
