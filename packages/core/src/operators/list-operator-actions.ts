import type { ServiceContext } from '../shared/context.ts';
import { decodeCursor, encodeCursor } from '../shared/cursor.ts';
import { type Page, pageOf } from '../shared/records.ts';
import type { AuditAction, AuditTargetType } from './record-operator-action.ts';

export interface ListOperatorActionsOptions {
  /** Only the actions on this object (an account, key, webhook, render job or testimonial id). */
  targetId?: string;
  limit: number;
  cursor?: string;
}

export interface OperatorActionRecord {
  id: string;
  operatorTokenId: string;
  operatorName: string;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  details: unknown;
  createdAt: Date;
}

/** The audit log, newest first, keyset-paged. */
export async function listOperatorActions(ctx: ServiceContext, { targetId, limit, cursor }: ListOperatorActionsOptions): Promise<Page<OperatorActionRecord>> {
  const after = cursor ? decodeCursor(cursor, /^\d{1,19}$/) : undefined;
  const rows = await ctx.db.operatorAuditEntry.findMany({
    where: {
      ...(targetId ? { targetId } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: BigInt(after.id) } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return pageOf(
    // only recordOperatorAction writes these rows, so action and targetType are among its values
    rows.map((row) => ({ ...row, id: row.id.toString(), action: row.action as AuditAction, targetType: row.targetType as AuditTargetType })),
    limit,
    encodeCursor,
  );
}
