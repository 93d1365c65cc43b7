import type { TemplateMessage } from '@svc/db';
import { releaseCreditHold, settleCreditHold } from '../credits/reserve-credits.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import type { GetMessageDraftOptions } from './get-build-draft.ts';
import { buildNotFound, findOwnedBuild } from './get-template-build.ts';

/** Cancels a build's pending message (the contract's template message lifecycle); see cancelPendingMessage. */
export async function cancelBuildMessage(ctx: ServiceContext, options: GetMessageDraftOptions): Promise<TemplateMessage> {
  const build = await findOwnedBuild(ctx, options);
  return cancelPendingMessage(ctx, build.id, options.messageId, buildNotFound);
}

/**
 * Cancels a pending message of a build or chat in one transaction. The pipeline's every write is
 * fenced on a pending state, so a worker still talking to the model finds the message cancelled
 * and drops its result. Before a candidate exists the reservation is released (the template message lifecycle). Once
 * the message shows a preview_id the candidate's render is the customer's to download, so the
 * model's work was delivered and the cancel settles the reservation: otherwise creating and
 * cancelling in a loop would yield candidates for no credit. A message that already ended
 * answers 409 operation_conflict; one not of the build, `missing()`.
 */
export async function cancelPendingMessage(ctx: ServiceContext, buildId: string, messageId: string, missing: () => DomainError): Promise<TemplateMessage> {
  const now = ctx.clock();
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; preview_id: string | null }[]>`
      UPDATE template_messages SET state = 'cancelled', finished_at = ${now}, lease_expires_at = NULL
       WHERE id = ${messageId} AND build_id = ${buildId} AND state IN ('queued', 'running', 'previewing')
      RETURNING id, preview_id`;
    if (rows.length === 0) {
      const exists = await tx.templateMessage.findFirst({ where: { id: messageId, buildId }, select: { id: true } });
      throw exists ? new DomainError('operation_conflict') : missing();
    }
    if (rows[0]!.preview_id === null) await releaseCreditHold(tx, { holdId: messageId, now, metrics: ctx.metrics });
    else await settleCreditHold(tx, { holdId: messageId, now, metrics: ctx.metrics });
    return tx.templateMessage.findUniqueOrThrow({ where: { id: messageId } });
  });
}
