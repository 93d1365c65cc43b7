// What revoking a key does to the groups it created (docs/security.md): a revoked key stops
// spending, so nothing of its groups that has not started is admitted or rendered later.
import type { GroupKind, Tx } from '@svc/db';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { finishRender } from '../renders/finish-render.ts';
import { cancelBatchRows } from './cancel-batch.ts';

export interface StopKeyMembersOptions {
  accountId: string;
  keyId: string;
  now: Date;
  /** Where the cancelled jobs are counted (the service context's). */
  metrics: ServiceMetrics;
}

/** Why a carousel page or image pack size ended when its key was revoked. */
export const keyRevokedCode = 'key_revoked';

/**
 * Ends the members of the key's groups that have not started: a batch is cancelled exactly as
 * by the batch cancel operation (pending rows cancelled, queued jobs cancelled with their credit
 * released and render.cancelled recorded, the batch cancelled unless a row succeeded). Carousels
 * and image packs have no cancel and no cancelled member state (the contract gives them none), so their pending
 * members fail with key_revoked (no job, no charge) and their queued jobs are cancelled (credit
 * released, render.cancelled recorded) with the member shown failed with key_revoked. Running
 * jobs finish and succeeded files stay, as for a cancel. The caller holds the account row lock,
 * like every admission, so no member of the key is admitted after this. Repeating is safe.
 */
export async function stopKeyMembers(tx: Tx, { accountId, keyId, now, metrics }: StopKeyMembersOptions): Promise<void> {
  const groups = await tx.$queryRaw<{ id: string; kind: GroupKind }[]>`
    SELECT g.id, g.kind::text AS kind FROM render_groups g
     WHERE g.account_id = ${accountId} AND g.key_id = ${keyId}
       AND EXISTS (SELECT 1 FROM render_group_members m LEFT JOIN render_jobs j ON j.id = m.job_id
                    WHERE m.group_id = g.id AND (m.state = 'pending' OR (m.state = 'admitted' AND j.status = 'queued')))
     ORDER BY g.created_at, g.id`;
  for (const group of groups) {
    if (group.kind === 'batch') {
      await cancelBatchRows(tx, group.id, now, metrics);
      continue;
    }
    await tx.$executeRaw`
      UPDATE render_group_members SET state = 'failed', error_code = ${keyRevokedCode} WHERE group_id = ${group.id} AND state = 'pending'`;
    const queued = await tx.$queryRaw<{ id: string }[]>`
      SELECT j.id FROM render_jobs j JOIN render_group_members m ON m.job_id = j.id
       WHERE m.group_id = ${group.id} AND j.status = 'queued' ORDER BY m.position FOR UPDATE OF j`;
    for (const job of queued) {
      await tx.$executeRaw`UPDATE render_group_members SET error_code = ${keyRevokedCode} WHERE job_id = ${job.id}`;
      await finishRender(tx, { jobId: job.id, attempt: null, outcome: { status: 'cancelled' }, now, metrics });
    }
  }
}
