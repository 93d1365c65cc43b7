import type { GroupState, MemberState } from '@svc/contracts';
import type { DbOrTx, GroupKind, Prisma, RenderGroup } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { RenderJobRecord } from '../shared/records.ts';
import { groupState, type MemberProgress, shownMemberState } from './group-state.ts';

export type RenderGroupRecord = RenderGroup;

export interface GroupMemberView {
  position: number;
  /** page id (carousel) or requested size (image pack); null for batch rows */
  label: string | null;
  name: string | null;
  width: number | null;
  height: number | null;
  state: MemberState;
  /** the code of a failure: the job's error code, or why the member ended without a job */
  errorCode: string | null;
  /** the member's current attempt, null while pending or when it ended without a job */
  job: RenderJobRecord | null;
}

export interface RenderGroupView {
  group: RenderGroupRecord;
  state: GroupState;
  members: GroupMemberView[];
}

export interface GetRenderGroupOptions {
  accountId: string;
  kind: GroupKind;
  groupId: string;
}

/** A group of the account with each member's state; reads only, never starts billed work. Foreign or unknown: 404. */
export async function getRenderGroup(ctx: ServiceContext, { accountId, kind, groupId }: GetRenderGroupOptions): Promise<RenderGroupView> {
  const view = await loadRenderGroup(ctx.db, groupId);
  if (!view || view.group.accountId !== accountId || view.group.kind !== kind) throw notFound();
  return view;
}

/** What a group is read with: its members in order, each with its current attempt (inputs left out). */
export const groupWithMembers = {
  members: { orderBy: { position: 'asc' }, omit: { html: true, options: true, assetIds: true }, include: { job: true } },
} as const satisfies Prisma.RenderGroupInclude;

export async function loadRenderGroup(db: DbOrTx, groupId: string): Promise<RenderGroupView | null> {
  const group = await db.renderGroup.findUnique({ where: { id: groupId }, include: groupWithMembers });
  return group ? groupView(group) : null;
}

/** A group read with groupWithMembers, with each member's state and the group's. */
export function groupView(group: Prisma.RenderGroupGetPayload<{ include: typeof groupWithMembers }>): RenderGroupView {
  const { members, ...record } = group;
  const progress = members.map((member): MemberProgress => {
    // carousels and packs have no cancelled member: a job cancelled by its key's revocation shows failed
    if (member.state === 'admitted' && member.job) return member.job.status === 'cancelled' && record.kind !== 'batch' ? 'failed' : member.job.status;
    return member.state === 'admitted' ? 'pending' : member.state;
  });
  return {
    group: record,
    state: groupState(progress, record.cancelledAt !== null),
    members: members.map((member, index) => ({
      position: member.position,
      label: member.label,
      name: member.name,
      width: member.width,
      height: member.height,
      state: shownMemberState(progress[index]!),
      errorCode: member.errorCode ?? (member.job?.status === 'failed' ? member.job.errorCode : null),
      job: member.job,
    })),
  };
}
