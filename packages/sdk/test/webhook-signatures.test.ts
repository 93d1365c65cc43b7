// Signatures made by the service's own signing function, checked by the SDK's verifier.
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../../core/src/webhooks/webhook-secret.ts';
import { verifyWebhook } from '../src/index.ts';
import { refusal } from './support/refusal.ts';

const current = `svc_whsec_${'a1'.repeat(32)}`;
const previous = `svc_whsec_${'b2'.repeat(32)}`;
const body = JSON.stringify({
  id: `evt_${'0'.repeat(32)}`,
  type: 'render.succeeded',
  created_at: '2026-01-01T00:00:00.000Z',
  data: { job: { id: `pdf_${'1'.repeat(32)}`, state: 'succeeded', output: 'pdf', url: 'https://render.example/v1/pdf/x' } },
});
const signedAt = new Date('2026-01-01T00:00:10.000Z');

describe('verifyWebhook', () => {
  it('accepts the exact body signed with the secret, as a string or as bytes, and returns the event', () => {
    const signature = signatureHeader([current], body, signedAt);
    const event = verifyWebhook({ payload: body, signature, secret: current, now: signedAt });
    expect(event.type).toBe('render.succeeded');
    expect(event.data.job.output).toBe('pdf');
    expect(verifyWebhook({ payload: new TextEncoder().encode(body), signature, secret: current, now: signedAt }).id).toBe(event.id);
  });

  it('accepts either secret of a rotation overlap, and a receiver holding both of its own', () => {
    const signature = signatureHeader([current, previous], body, signedAt);
    expect(verifyWebhook({ payload: body, signature, secret: previous, now: signedAt }).id).toMatch(/^evt_/);
    expect(verifyWebhook({ payload: body, signature: signatureHeader([previous], body, signedAt), secret: [current, previous], now: signedAt }).id).toMatch(/^evt_/);
  });

  it('refuses a changed body, another secret, a stale or future timestamp, and a missing or malformed header', () => {
    const signature = signatureHeader([current], body, signedAt);
    const at = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000);
    expect(refusal(() => verifyWebhook({ payload: body.replace('succeeded', 'failed'), signature, secret: current, now: signedAt }))).toBe('signature_mismatch');
    expect(refusal(() => verifyWebhook({ payload: body, signature, secret: previous, now: signedAt }))).toBe('signature_mismatch');
    expect(refusal(() => verifyWebhook({ payload: body, signature, secret: current, now: at(301) }))).toBe('timestamp_out_of_tolerance');
    expect(refusal(() => verifyWebhook({ payload: body, signature, secret: current, now: at(-301) }))).toBe('timestamp_out_of_tolerance');
    expect(refusal(() => verifyWebhook({ payload: body, signature, secret: current, now: at(300) }))).toBeUndefined();
    expect(refusal(() => verifyWebhook({ payload: body, signature, secret: current, now: at(60), toleranceSeconds: 30 }))).toBe('timestamp_out_of_tolerance');
    expect(refusal(() => verifyWebhook({ payload: body, signature: undefined, secret: current }))).toBe('missing_signature');
    expect(refusal(() => verifyWebhook({ payload: body, signature: 'v1=abc', secret: current }))).toBe('malformed_signature');
    // a signature moved to another timestamp no longer matches
    const [, v1] = signature.split(',');
    expect(refusal(() => verifyWebhook({ payload: body, signature: `t=${Math.floor(at(5).getTime() / 1000)},${v1}`, secret: current, now: signedAt }))).toBe(
      'signature_mismatch',
    );
  });
});
