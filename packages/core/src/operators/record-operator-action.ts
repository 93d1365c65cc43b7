import type { ServiceContext } from '../shared/context.ts';
import type { OperatorPrincipal } from './authenticate-operator.ts';

/** What an operator action can be on. */
export const auditTargetTypes = ['account', 'api_key', 'webhook', 'render_job', 'testimonial'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/** Every operator action, named after the mutation that makes it. */
export const auditActions = [
  'suspendAccount',
  'unsuspendAccount',
  'grantCredits',
  'changePlan',
  'revokeApiKey',
  'disableWebhook',
  'replayWebhook',
  'retryRenderJob',
  'markTestimonialReviewed',
] as const;
export type AuditAction = (typeof auditActions)[number];

export interface RecordOperatorActionOptions {
  operator: OperatorPrincipal;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  /** The action's own arguments; never customer content. */
  details?: Record<string, string | number | boolean | null>;
}

/** Writes one audit row for an operator action that succeeded. */
export async function recordOperatorAction(ctx: ServiceContext, options: RecordOperatorActionOptions): Promise<void> {
  const { operator, action, targetType, targetId, details = {} } = options;
  await ctx.db.operatorAuditEntry.create({
    data: { operatorTokenId: operator.tokenId, operatorName: operator.name, action, targetType, targetId, details, createdAt: ctx.clock() },
  });
}
