// Every spelling of a length or number option is decided at admission: either 400 with the
// field's path and nothing charged, or an admitted job that succeeds. Never an admitted job
// that then fails on its own options.
import { describe, expect, it } from 'vitest';
import { api, expectError, newAccount, serviceDb } from './support/api.ts';

type Outcome = 'refused' | 'renders';

interface Case {
  pdf?: Record<string, unknown>;
  viewport?: Record<string, unknown>;
  expect: Outcome;
  /** the detail field of a refusal */
  field?: string;
}

const cases: Record<string, Case> = {
  // lengths: syntax
  '.5mm': { pdf: { width: '.5mm', height: '100mm' }, expect: 'renders' },
  '0.5mm': { pdf: { width: '0.5mm', height: '100mm' }, expect: 'renders' },
  '1. (no decimals after the dot)': { pdf: { width: '1.mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  '4 decimals': { pdf: { width: '100.1234mm', height: '100mm' }, expect: 'renders' },
  '5 decimals': { pdf: { width: '100.12345mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'exponent': { pdf: { width: '1e2mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'upper-case exponent': { pdf: { width: '1E2mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'leading space': { pdf: { width: ' 100mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'trailing space': { pdf: { width: '100mm ', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'space before the unit': { pdf: { width: '100 mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'plus sign': { pdf: { width: '+100mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'minus sign': { pdf: { width: '-100mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'upper-case unit': { pdf: { width: '100MM', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'no unit': { pdf: { width: '100', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'another unit': { pdf: { width: '10pt', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'a number, not a string': { pdf: { width: 100, height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  'seven integer digits': { pdf: { width: '1000000px', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  // lengths: value
  '0px page width': { pdf: { width: '0px', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  '0.0000mm page height': { pdf: { width: '100mm', height: '0.0000mm' }, expect: 'refused', field: 'pdf.height' },
  'the smallest positive length': { pdf: { width: '.0001in', height: '.0001in' }, expect: 'renders' },
  '200in, the largest page side': { pdf: { width: '200in', height: '1in' }, expect: 'renders' },
  'over 200in': { pdf: { width: '200.0001in', height: '1in' }, expect: 'refused', field: 'pdf.width' },
  '999999in': { pdf: { width: '10in', height: '999999in' }, expect: 'refused', field: 'pdf.height' },
  '0px margin': { pdf: { margins: { top: '0px' } }, expect: 'renders' },
  '.5mm margin': { pdf: { margins: { left: '.5mm' } }, expect: 'renders' },
  'margin with a space': { pdf: { margins: { left: '5 mm' } }, expect: 'refused', field: 'pdf.margins.left' },
  'margin 1.': { pdf: { margins: { bottom: '1.' } }, expect: 'refused', field: 'pdf.margins.bottom' },
  'margins wider than the page': { pdf: { format: 'A4', margins: { left: '150mm', right: '150mm' } }, expect: 'refused', field: 'pdf.margins.left' },
  'margins exactly the page height': { pdf: { width: '100mm', height: '100mm', margins: { top: '50mm', bottom: '50mm' } }, expect: 'refused', field: 'pdf.margins.top' },
  'margins just inside the page': { pdf: { width: '100mm', height: '100mm', margins: { top: '49.9mm', bottom: '50mm' } }, expect: 'renders' },
  'landscape swaps the sides margins apply to': { pdf: { width: '100mm', height: '300mm', landscape: true, margins: { top: '60mm', bottom: '60mm' } }, expect: 'refused', field: 'pdf.margins.top' },
  'landscape with room': { pdf: { width: '100mm', height: '300mm', landscape: true, margins: { left: '120mm', right: '120mm' } }, expect: 'renders' },
  // pairs and exclusions
  'width alone': { pdf: { width: '100mm' }, expect: 'refused', field: 'pdf.height' },
  'format and a size': { pdf: { format: 'A4', width: '100mm', height: '100mm' }, expect: 'refused', field: 'pdf.width' },
  // numbers
  'scale 0.1': { pdf: { scale: 0.1 }, expect: 'renders' },
  'scale 0.0999': { pdf: { scale: 0.0999 }, expect: 'refused', field: 'pdf.scale' },
  'scale 2': { pdf: { scale: 2 }, expect: 'renders' },
  'scale 2.0001': { pdf: { scale: 2.0001 }, expect: 'refused', field: 'pdf.scale' },
  'scale as text': { pdf: { scale: '1' }, expect: 'refused', field: 'pdf.scale' },
  'device scale factor 3': { viewport: { device_scale_factor: 3 }, expect: 'renders' },
  'device scale factor 3.0001': { viewport: { device_scale_factor: 3.0001 }, expect: 'refused', field: 'viewport.device_scale_factor' },
  'device scale factor 0.5': { viewport: { device_scale_factor: 0.5 }, expect: 'refused', field: 'viewport.device_scale_factor' },
  'viewport width 320.5': { viewport: { width: 320.5 }, expect: 'refused', field: 'viewport.width' },
  'viewport width 7681': { viewport: { width: 7681 }, expect: 'refused', field: 'viewport.width' },
  'password of 127 bytes': { pdf: { password: 'é'.repeat(63) + 'x' }, expect: 'renders' },
  'password of 128 bytes': { pdf: { password: 'é'.repeat(64) }, expect: 'refused', field: 'pdf.password' },
};

describe('PDF option spellings', () => {
  for (const [name, entry] of Object.entries(cases)) {
    it(`${name}: ${entry.expect === 'renders' ? 'a job that succeeds' : `400 on ${entry.field}`}`, async () => {
      const account = await newAccount({ plan: 'free', credits: 1 });
      const body = { html: '<p>Lengths</p>', ...(entry.pdf ? { pdf: entry.pdf } : {}), ...(entry.viewport ? { viewport: entry.viewport } : {}) };
      const response = await api('/v1/pdf', { method: 'POST', key: account.apiKey, body });
      const jobs = await serviceDb().renderJob.count({ where: { accountId: account.accountId } });
      if (entry.expect === 'refused') {
        const error = expectError(response, 400, 'invalid_request');
        expect(error.details?.map((detail: { field: string }) => detail.field)).toContain(entry.field);
        expect(jobs).toBe(0);
        const balance = await serviceDb().creditBalance.findFirstOrThrow({ where: { accountId: account.accountId, bucket: 'trial' } });
        expect(balance.balance).toBe(1);
        return;
      }
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'succeeded', credit: 'settled', error: null });
    });
  }
});
