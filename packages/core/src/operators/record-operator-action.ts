import type { ServiceContext } from '../shared/context.ts';
import type { OperatorPrincipal } from './authenticate-operator.ts';

export type AuditTargetType = 'account' | 'api_key' | 'webhook' | 'render_job' | 'testimonial';

export interface RecordOperatorActionOptions {
  operator: OperatorPrincipal;
  /** The mutation's name, e.g. suspendAccount. */
  action: string;
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
