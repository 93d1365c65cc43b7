// The code filters (qrcode, barcode, epc_qr, swiss_qr): the SVG drawCode makes for the same input,
// output unescaped; a value the code refuses is template_invalid_filter_input at the filter with
// @svc/codes' reason; each call is charged to the work budget by its size, and an evaluation
// draws at most 100 codes. Decoding the drawings is the renderer's test (codes.test.ts).
import { describe, expect, it } from 'vitest';
import { drawCode, epcPayload, swissQrBillPayload, type EpcPayloadInput, type SwissQrBillInput } from '@svc/codes';
import { expectRefused, render } from './template-support.ts';

const payment: EpcPayloadInput = { name: 'Franz Mustermann', iban: 'DE71 1102 2033 0123 4567 89', amount: 12.3, text: 'Invoice 2026-0042' };
const bill: SwissQrBillInput = {
  account: 'CH44 3199 9123 0008 8901 2',
  creditor: { name: 'Robert Schneider AG', street: 'Rue du Lac', buildingNumber: '1268', postalCode: '2501', town: 'Biel', country: 'CH' },
  amount: 1949.75,
  currency: 'CHF',
  reference: '21 00000 00003 13947 14300 09017',
};

describe('code filters', () => {
  it('qrcode draws what drawCode draws, unescaped, with its options by keyword or position', async () => {
    const url = 'https://example.com/orders/2026-0042?x=1&y=2';
    expect(await render('<p>{{ order.url | qrcode }}</p>', { order: { url } })).toBe(`<p>${drawCode({ kind: 'qr', text: url })}</p>`);
    expect(await render('{{ url | qrcode(ecc="h", size="30mm") }}', { url })).toBe(drawCode({ kind: 'qr', text: url, options: { ecc: 'H', size: '30mm' } }));
    expect(await render('{{ url | qrcode("1in", quietZone=2) }}', { url })).toBe(drawCode({ kind: 'qr', text: url, options: { size: '1in', quietZone: 2 } }));
  });

  it('barcode draws the kind it is given, from text or a number', async () => {
    expect(await render('{{ product.ean | barcode("ean13") }}', { product: { ean: '4006381333931' } })).toBe(drawCode({ kind: 'ean13', text: '4006381333931' }));
    expect(await render('{{ 400638133393 | barcode("ean13") }}')).toBe(drawCode({ kind: 'ean13', text: '400638133393' }));
    expect(await render('{{ "SHIP-0042" | barcode("code128", "60mm", height="12mm", humanReadable=true) }}')).toBe(
      drawCode({ kind: 'code128', text: 'SHIP-0042', options: { size: '60mm', height: '12mm', humanReadable: true } }),
    );
    expect(await render('{{ "abc" | barcode(kind="datamatrix") }}')).toBe(drawCode({ kind: 'datamatrix', text: 'abc' }));
  });

  it('epc_qr and swiss_qr build the payment payload from an object and draw it', async () => {
    expect(await render('{{ payment | epc_qr }}', { payment })).toBe(drawCode({ kind: 'epc', text: epcPayload(payment) }));
    expect(await render('{{ bill | swiss_qr(size="50mm") }}', { bill })).toBe(drawCode({ kind: 'swissqr', text: swissQrBillPayload(bill), options: { size: '50mm' } }));
  });

  it('a value the code refuses is template_invalid_filter_input at the filter, with the reason', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['{{ ean | barcode("ean13") }}', { ean: '4006381333932' }, 'value: wrong check digit 2: the EAN-13 check digit of these digits is 1'],
      ['{{ "x" | barcode("ean13") }}', {}, 'value: an EAN-13 is 12 digits, or 13 with the check digit'],
      ['{{ "x" | barcode("aztec") }}', {}, 'kind: must be one of qr, code128, ean13, upca, datamatrix, pdf417, swissqr, epc'],
      ['{{ "x" | barcode }}', {}, 'kind: must be one of qr, code128, ean13, upca, datamatrix, pdf417, swissqr, epc'],
      ['{{ "x" | qrcode(ecc="X") }}', {}, 'ecc: must be L, M, Q or H'],
      ['{{ "x" | qrcode(quietZone="2") }}', {}, 'quietZone: must be a number'],
      ['{{ "x" | qrcode(colour="red") }}', {}, 'options: a code filter takes kind, ecc, size, height, quietZone, humanReadable'],
      ['{{ "x" | qrcode(kind="ean13") }}', {}, 'kind: qrcode draws one kind: use barcode to name the kind'],
      ['{{ "" | qrcode }}', {}, 'value: a QR code needs a value'],
      ['{{ p | epc_qr }}', { p: { ...payment, iban: 'DE71110220330123456788' } }, 'iban: the IBAN check digits do not match (a mistyped character?)'],
      ['{{ p | swiss_qr }}', { p: { ...bill, creditor: { ...bill.creditor, town: '' } } }, 'creditor.town: is required'],
    ];
    for (const [source, data, problem] of cases) {
      // at the filter's name
      const column = source.indexOf('| ') + 3;
      const { error } = await expectRefused(`<p>\n${source}`, 'template_invalid_filter_input', { data, line: 2, column });
      expect(error.problem).toBe(problem);
      expect(error.fix).toBe(`The code cannot be drawn: ${problem}.`);
    }
  });

  it('input that is not text, a number or (for payments) an object is refused without a code reason', async () => {
    for (const [source, data] of [
      ['{{ items | qrcode }}', { items: [1] }],
      ['{{ "BCD" | epc_qr }}', {}],
      ['{{ p | epc_qr(1, 2) }}', { p: payment }],
    ] as const) {
      const { error } = await expectRefused(source, 'template_invalid_filter_input', { data, line: 1 });
      expect(error.problem).toBeUndefined();
    }
    await expectRefused('{{ missing | qrcode }}', 'template_missing_data', { line: 1, column: 14 });
  });

  it('charges 1 work unit per 10 bytes of input before drawing', async () => {
    // 2,000 bytes: 200 units, and the template's own polls a few more
    const data = { value: 'é'.repeat(1000) };
    await expectRefused('{{ value | qrcode(ecc="L") }}', 'template_work_limit', { data, limits: { workUnits: 190 } });
    expect(await render('{{ value | qrcode(ecc="L") }}', data, { workUnits: 220, timeMs: 30_000 })).toBe(drawCode({ kind: 'qr', text: data.value, options: { ecc: 'L' } }));
    // a payment filter is charged for its object's JSON
    const units = Math.ceil(Buffer.byteLength(JSON.stringify(payment)) / 10);
    await expectRefused('{{ payment | epc_qr }}', 'template_work_limit', { data: { payment }, limits: { workUnits: units - 2 } });
    expect(await render('{{ payment | epc_qr }}', { payment }, { workUnits: units + 5, timeMs: 30_000 })).toBe(drawCode({ kind: 'epc', text: epcPayload(payment) }));
  });

  it("leaves the host's code drawer off the VM's global object", async () => {
    expect(await render("{{ ''.constructor.constructor('return typeof svcCode + typeof globalThis.svcCode')() }}")).toBe('undefinedundefined');
  });

  it('draws at most 100 codes in one evaluation', async () => {
    const limits = { timeMs: 60_000 };
    const codes = (count: number) => `{% for i in range(0, ${count}) %}{{ "4006381333931" | barcode("ean13") }}{% endfor %}`;
    expect(await render(codes(100), {}, limits)).toBe(drawCode({ kind: 'ean13', text: '4006381333931' }).repeat(100));
    await expectRefused(codes(101), 'template_work_limit', { limits });
  });
});
