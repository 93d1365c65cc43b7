import type { ServiceContext } from '../shared/context.ts';
import { claimWebhookAttempt } from './claim-webhook-attempt.ts';
import { recordWebhookAttempt } from './record-webhook-attempt.ts';
import { sendWebhookRequest } from './send-webhook-request.ts';
import { signatureHeader } from './webhook-secret.ts';

export interface RunWebhookAttemptOptions {
  deliveryId: string;
}

export type AttemptOutcome = { sent: false } | { sent: true; statusCode: number | null; delivered: boolean };

/**
 * One delivery attempt: claim it, POST the stored body with a fresh timestamp and
 * signature through the egress policy (checked again on this connection), record the
 * result. A crash between claim and record leaves a leased attempt that recovery resends.
 */
export async function runWebhookAttempt(ctx: ServiceContext, { deliveryId }: RunWebhookAttemptOptions): Promise<AttemptOutcome> {
  const claim = await claimWebhookAttempt(ctx, deliveryId);
  if (!claim) return { sent: false };
  const result = await sendWebhookRequest(claim.url, {
    body: claim.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      'svc-signature': signatureHeader(claim.secrets, claim.body, ctx.clock()),
    },
    policy: { allowlist: ctx.config.egressAllowlist },
  });
  await recordWebhookAttempt(ctx, claim, result);
  return { sent: true, statusCode: result.statusCode, delivered: result.failure === null };
}
