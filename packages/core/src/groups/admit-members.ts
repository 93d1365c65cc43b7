import type { RenderOptions } from '@svc/contracts';
import { Prisma, type Tx } from '@svc/db';
import { reserveCredits } from '../credits/reserve-credits.ts';
import type { ServiceMetrics } from '../ports/metrics.ts';
import { DomainError } from '../shared/errors.ts';
import { newRenderJobId } from '../shared/ids.ts';
import { defaultFilename, safeName } from '../renders/filename.ts';
import { accountConcurrency, fullLiveLimit, liveJobs, recordRenderJob } from '../renders/render-job-store.ts';
import { stopKeyMembers } from './stop-key-members.ts';

export interface AdmitPendingMembersOptions {
  accountId: string;
  now: Date;
  /** Live group member jobs the account may hold at once (SVC_GROUP_CONCURRENCY). */
  groupConcurrency: number;
  /** Where reservations and stopped members are counted (the service context's). */
  metrics: ServiceMetrics;
}

/**
 * A pending member as the scan reads it: what admission decides on. Its html and options stay
 * in PostgreSQL, copied into the job by the insert: a pass reads up to 200 members to admit a
 * few, and a batch's drain runs a pass per finished row.
 */
interface PendingMember {
  group_id: string;
  position: number;
  key_id: string | null;
  key_status: 'active' | 'revoked' | null;
  overage_cap: number | null;
  template_id: string;
  template_version: number;
  template_name: string | null;
  kind: RenderOptions['kind'];
}

/** How many pending members one pass looks at; the account's live-job limit admits far fewer. */
const scanLimit = 200;

/**
 * Admits pending group members of an account while its concurrency allows (16 live jobs per
 * account, 8 per key: the key that created the group, and SVC_GROUP_CONCURRENCY live member
 * jobs, so a batch keeps a few renders in flight and never fills the worker's task slots and
 * browser queue ahead of single renders), oldest group first and in position order. Each admitted member becomes a normal render job with its own credit reservation,
 * queued at bulk priority. A member the account cannot pay for fails at once with
 * insufficient_credits, with no job and no charge (a retry takes it up again). The caller
 * holds the account row lock, so admissions of one account never race. Returns how many
 * members became jobs.
 */
export async function admitPendingMembers(tx: Tx, { accountId, now, groupConcurrency, metrics }: AdmitPendingMembersOptions): Promise<number> {
  const [account] = await tx.$queryRaw<{ plan: 'scale' | 'growth' | 'starter' | 'pack' | 'free'; status: string }[]>`
    SELECT plan::text AS plan, status::text AS status FROM accounts WHERE id = ${accountId}`;
  if (!account || account.status !== 'active') return 0;
  const live = await liveJobs(tx, accountId);
  let accountLive = live.account;
  let groupLive = live.groups;
  if (accountLive >= accountConcurrency || groupLive >= groupConcurrency) return 0;

  const pending = await tx.$queryRaw<PendingMember[]>`
    SELECT m.group_id, m.position, g.key_id, k.status::text AS key_status, k.monthly_overage_cap AS overage_cap, g.template_id, g.template_version,
           t.name AS template_name, m.options->>'kind' AS kind
      FROM render_group_members m
      JOIN render_groups g ON g.id = m.group_id
      JOIN templates t ON t.id = g.template_id
      LEFT JOIN api_keys k ON k.id = g.key_id
     WHERE m.account_id = ${accountId} AND m.state = 'pending'
     ORDER BY g.created_at, g.id, m.position
     LIMIT ${scanLimit}`;
  let admitted = 0;
  for (const member of pending) {
    if (accountLive >= accountConcurrency || groupLive >= groupConcurrency) break;
    if (member.key_status === 'revoked') {
      // a group created as its key was being revoked, or retried after: a revoked key stops spending
      await stopKeyMembers(tx, { accountId, keyId: member.key_id!, now, metrics });
      continue;
    }
    const keyLive = live.byKey.get(member.key_id) ?? 0;
    if (fullLiveLimit({ account: accountLive, key: keyLive })) continue;
    const memberRow = Prisma.sql`WHERE group_id = ${member.group_id} AND position = ${member.position}`;
    const jobId = newRenderJobId(member.kind);
    try {
      await reserveCredits(tx, { accountId, plan: account.plan, holder: { jobId }, keyId: member.key_id, overageCap: member.overage_cap, now, metrics });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'insufficient_credits') throw error;
      await tx.$executeRaw`UPDATE render_group_members SET state = 'failed', error_code = 'insufficient_credits' ${memberRow}`;
      continue;
    }
    // the member's html and options are copied into the job by the statement, never read here
    const recorded = {
      id: jobId,
      accountId,
      keyId: member.key_id,
      kind: member.kind,
      filename: defaultFilename(now, safeName(member.template_name ?? '') || member.template_id),
      template: { id: member.template_id, version: member.template_version },
      input: Prisma.sql`SELECT html, options, asset_ids, data_sha256 FROM render_group_members ${memberRow}`,
      groupId: member.group_id,
      now,
    };
    await recordRenderJob(tx, recorded, Prisma.sql`UPDATE render_group_members SET state = 'admitted', job_id = (SELECT id FROM created), error_code = NULL ${memberRow}`);
    accountLive += 1;
    groupLive += 1;
    live.byKey.set(member.key_id, keyLive + 1);
    admitted += 1;
  }
  return admitted;
}
