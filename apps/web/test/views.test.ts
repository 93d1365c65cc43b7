// The REST serializers: what a stored record looks like on the wire.
import type { WebhookRecord } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { webhookBody } from '../src/http/views/webhooks.ts';

const created = new Date('2026-03-15T12:00:00Z');
const record: WebhookRecord = {
  id: `wh_${'a'.repeat(32)}`,
  accountId: `acc_${'b'.repeat(32)}`,
  url: 'https://hooks.example.com/in',
  events: ['render.succeeded', 'render.failed'],
  status: 'enabled',
  disabledReason: null,
  secret: `svc_whsec_${'c'.repeat(64)}`,
  displayPrefix: 'svc_whsec_cccc',
  previousSecret: `svc_whsec_${'d'.repeat(64)}`,
  previousSecretExpiresAt: new Date(created.getTime() + 24 * 3_600_000),
  failureCount: 0,
  lastDeliveryAt: null,
  createdAt: created,
};

describe('webhook body', () => {
  it('shows the rotation overlap while it lasts and null once it has ended, never a secret', () => {
    const during = webhookBody(record, new Date(created.getTime() + 23 * 3_600_000));
    expect(during.previous_secret_expires_at).toBe('2026-03-16T12:00:00.000Z');
    expect(during.events).toEqual(['render.failed', 'render.succeeded']);
    expect(webhookBody(record, new Date(created.getTime() + 24 * 3_600_000)).previous_secret_expires_at).toBeNull();
    expect(JSON.stringify(during)).not.toContain('c'.repeat(20));
    expect(JSON.stringify(during)).not.toContain('d'.repeat(20));
  });
});
