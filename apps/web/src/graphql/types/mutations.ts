import {
  disableWebhook,
  getWebhook,
  grantAccountCredits,
  markTestimonialReviewed,
  notFound,
  ownerOf,
  recordOperatorAction,
  replayWebhook,
  retryRenderJob,
  revokeApiKey,
  setAccountPlan,
  setAccountStatus,
  showAccount,
  type WebhookRecord,
} from '@svc/core';
import { z } from 'zod';
import { builder } from '../builder.ts';
import { Account, ApiKey } from './account.ts';
import { Webhook } from './content.ts';
import { CreditBucketEnum, PlanEnum } from './enums.ts';
import { RenderJob } from './render-job.ts';
import { Testimonial } from './status.ts';

const ReplayWebhookResult = builder.objectRef<{ webhook: WebhookRecord; replayed: number }>('ReplayWebhookResult').implement({
  fields: (t) => ({
    webhook: t.field({ type: Webhook, resolve: (result) => result.webhook }),
    replayed: t.exposeInt('replayed', { description: 'Failed events queued again (0 while the destination is disabled), as POST /v1/webhooks/{id}/replay answers.' }),
  }),
});

/** The owner of an object named in a mutation; an unknown id fails like REST, 404 not_found. */
async function ownerOrNotFound(...args: Parameters<typeof ownerOf>): Promise<string> {
  const accountId = await ownerOf(...args);
  if (!accountId) throw notFound();
  return accountId;
}

builder.mutationFields((t) => ({
  suspendAccount: t.field({
    type: Account,
    description: 'As `svc account suspend`: keys answer 403 account_suspended, browser sessions end.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      await setAccountStatus(ctx, { accountId: String(id), suspended: true });
      await recordOperatorAction(ctx, { operator, action: 'suspendAccount', targetType: 'account', targetId: String(id) });
      return showAccount(ctx, String(id));
    },
  }),
  unsuspendAccount: t.field({
    type: Account,
    description: 'As `svc account unsuspend`.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      await setAccountStatus(ctx, { accountId: String(id), suspended: false });
      await recordOperatorAction(ctx, { operator, action: 'unsuspendAccount', targetType: 'account', targetId: String(id) });
      return showAccount(ctx, String(id));
    },
  }),
  grantCredits: t.field({
    type: Account,
    description: 'As `svc credits grant`: adds credits to one bucket, with a ledger entry; the reason is kept in the audit log.',
    args: {
      accountId: t.arg.id({ required: true }),
      bucket: t.arg({ type: CreditBucketEnum, required: true }),
      amount: t.arg.int({ required: true, description: '1 to 1,000,000.', validate: z.number().int().min(1).max(1_000_000) }),
      reason: t.arg.string({ required: true, description: '1 to 500 characters, for the audit log.', validate: z.string().trim().min(1).max(500) }),
    },
    resolve: async (_root, { accountId, bucket, amount, reason }, { ctx, operator }) => {
      await grantAccountCredits(ctx, { accountId: String(accountId), bucket, amount });
      await recordOperatorAction(ctx, { operator, action: 'grantCredits', targetType: 'account', targetId: String(accountId), details: { bucket, amount, reason: reason.trim() } });
      return showAccount(ctx, String(accountId));
    },
  }),
  changePlan: t.field({
    type: Account,
    description: 'As `svc account plan`: brand kits above the new plan\'s count are kept.',
    args: { accountId: t.arg.id({ required: true }), plan: t.arg({ type: PlanEnum, required: true }) },
    resolve: async (_root, { accountId, plan }, { ctx, operator }) => {
      const before = await showAccount(ctx, String(accountId));
      await setAccountPlan(ctx, { accountId: String(accountId), plan });
      await recordOperatorAction(ctx, { operator, action: 'changePlan', targetType: 'account', targetId: String(accountId), details: { from: before.plan, to: plan } });
      return showAccount(ctx, String(accountId));
    },
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    description: 'As DELETE /v1/keys/{id}: the key answers 401 from now on; repeating keeps the first revoked_at.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      const keyId = String(id);
      const key = await revokeApiKey(ctx, { accountId: await ownerOrNotFound(ctx, 'api_key', keyId), keyId });
      await recordOperatorAction(ctx, { operator, action: 'revokeApiKey', targetType: 'api_key', targetId: keyId, details: { account_id: key.accountId } });
      return key;
    },
  }),
  disableWebhook: t.field({
    type: Webhook,
    description: 'As POST /v1/webhooks/{id}/disable: deliveries stop (disabled_reason owner_request unless already disabled by failures).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      const webhookId = String(id);
      const webhook = await disableWebhook(ctx, { accountId: await ownerOrNotFound(ctx, 'webhook', webhookId), webhookId });
      await recordOperatorAction(ctx, { operator, action: 'disableWebhook', targetType: 'webhook', targetId: webhookId, details: { account_id: webhook.accountId } });
      return webhook;
    },
  }),
  replayWebhook: t.field({
    type: ReplayWebhookResult,
    description: 'As POST /v1/webhooks/{id}/replay: failed events are queued again with their original id and body; spends no credits.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      const webhookId = String(id);
      const accountId = await ownerOrNotFound(ctx, 'webhook', webhookId);
      const replayed = await replayWebhook(ctx, { accountId, webhookId });
      await recordOperatorAction(ctx, { operator, action: 'replayWebhook', targetType: 'webhook', targetId: webhookId, details: { account_id: accountId, replayed } });
      return { webhook: await getWebhook(ctx, { accountId, webhookId }), replayed };
    },
  }),
  retryRenderJob: t.field({
    type: RenderJob,
    description:
      'A new job from a failed one\'s input, admitted and billed like POST /v1/pdf or /v1/image (one credit; concurrency and backlog limits; 403 account_suspended). Failed jobs only (409 job_not_finished, 409 operation_conflict); once per job: asking again answers the same new job. The input of a failed job is kept for SVC_RETENTION_HOURS.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      const retry = await retryRenderJob(ctx, { jobId: String(id) });
      await recordOperatorAction(ctx, { operator, action: 'retryRenderJob', targetType: 'render_job', targetId: String(id), details: { account_id: retry.accountId, retry_job_id: retry.id } });
      return retry;
    },
  }),
  markTestimonialReviewed: t.field({
    type: Testimonial,
    description: 'Takes a testimonial off the pending list; repeating keeps the first review.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { ctx, operator }) => {
      const testimonial = await markTestimonialReviewed(ctx, { testimonialId: String(id), reviewedBy: operator.tokenId });
      await recordOperatorAction(ctx, { operator, action: 'markTestimonialReviewed', targetType: 'testimonial', targetId: testimonial.id });
      return testimonial;
    },
  }),
}));
