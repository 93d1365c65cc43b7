// The three benchmark fixtures: the same bytes go through raw puppeteer and through the service.

const invoiceRows = Array.from({ length: 12 }, (_, index) => `<tr><td>Item ${index + 1}</td><td>${index + 1}</td><td>${(9.5 * (index + 1)).toFixed(2)}</td></tr>`).join('');

export const invoiceHtml = `<!doctype html><html><head><title>Invoice</title><style>
body{font-family:sans-serif;margin:40px;color:#222}h1{color:#335}table{width:100%;border-collapse:collapse}
td,th{border-bottom:1px solid #ccc;padding:6px;text-align:left}.total{font-weight:bold;text-align:right}
</style></head><body><h1>Invoice 2026-1042</h1><p>Billed to: Example Ltd, 1 Market Street</p>
<table><thead><tr><th>Item</th><th>Qty</th><th>Amount</th></tr></thead><tbody>${invoiceRows}</tbody></table>
<p class="total">Total: 741.00 EUR</p></body></html>`;

/** A ledger of `rows` table rows: 420 fill about ten A4 pages. */
export function tableDocument(rows: number): string {
  const body = Array.from({ length: rows }, (_, index) => `<tr><td>${index + 1}</td><td>Customer ${index % 37}</td><td>Region ${index % 5}</td><td>${(index * 13.37).toFixed(2)}</td></tr>`).join('');
  return `<!doctype html><html><head><style>
body{font-family:sans-serif;margin:24px}table{width:100%;border-collapse:collapse;font-size:13px}
td,th{border:1px solid #ddd;padding:4px}tr:nth-child(even){background:#f6f6f6}
</style></head><body><h1>Quarterly ledger</h1><table><thead><tr><th>#</th><th>Customer</th><th>Region</th><th>Value</th></tr></thead>
<tbody>${body}</tbody></table></body></html>`;
}

/** About ten A4 pages of table rows. */
export const tableHtml = tableDocument(420);

export const cardHtml = `<!doctype html><html><body style="margin:0;width:1280px;height:720px;display:flex;align-items:center;justify-content:center;
background:linear-gradient(135deg,#1e3c72,#2a5298);font-family:sans-serif;color:white"><div><h1 style="font-size:72px;margin:0">Launch day</h1>
<p style="font-size:32px">Rendering at the speed of Chromium</p></div></body></html>`;

export interface Fixture {
  name: string;
  kind: 'pdf' | 'image';
  html: string;
}

export const fixtures: Fixture[] = [
  { name: 'invoice PDF (1 page)', kind: 'pdf', html: invoiceHtml },
  { name: 'table PDF (10 pages)', kind: 'pdf', html: tableHtml },
  { name: 'PNG 1280x720', kind: 'image', html: cardHtml },
];

/** The largest raw HTML input the contract takes: 5,242,880 bytes. */
export const maxRawHtmlBytes = 5_242_880;

/**
 * A document of exactly `bytes` bytes (ASCII): a long ledger whose last row is padded to the
 * size, so the whole input is parsed and laid out, not skipped as a comment would be.
 */
export function documentOfBytes(bytes: number): string {
  const row = (index: number) => `<tr><td>${index + 1}</td><td>Customer ${index % 37}</td><td>Region ${index % 5}</td><td>${(index * 13.37).toFixed(2)}</td></tr>`;
  const head = '<!doctype html><html><head><style>body{font-family:sans-serif;margin:24px}td{border:1px solid #ddd;padding:4px}</style></head><body><table><tbody>';
  const tail = '</tbody></table></body></html>';
  const parts = [head];
  let length = head.length + tail.length;
  for (let index = 0; ; index++) {
    const next = row(index);
    if (length + next.length + 40 > bytes) break;
    parts.push(next);
    length += next.length;
  }
  const filler = bytes - length - '<tr><td></td></tr>'.length;
  parts.push(`<tr><td>${'x'.repeat(Math.max(0, filler))}</td></tr>`, tail);
  return parts.join('');
}

/** The large-documents cell's fixtures: a 200-page table PDF and the largest raw HTML input, drawn as a PNG of its first screen. */
export const largeFixtures: Fixture[] = [
  { name: 'table PDF (200 pages)', kind: 'pdf', html: tableDocument(8400) },
  { name: 'raw HTML of 5 MiB (PNG)', kind: 'image', html: documentOfBytes(maxRawHtmlBytes) },
];
