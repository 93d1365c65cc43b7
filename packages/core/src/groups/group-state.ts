// How a group's state follows from its members (the contract leaves the rule
// open; docs/decisions/groups.md states it and test/group-state.test.ts checks every combination).
import type { GroupState, MemberState } from '@svc/contracts';

/** A member as the rule sees it: a render job's status, or pending (waiting for admission, no job). */
export type MemberProgress = MemberState | 'pending';

const active = new Set<MemberProgress>(['pending', 'queued', 'running']);

/**
 * - queued: every member waits (pending or queued): none runs or has finished;
 * - running: some member still waits or runs, and at least one runs or has finished;
 * - then, when every member has finished: complete (all succeeded), partial (some succeeded),
 *   cancelled (a cancelled batch with no succeeded row), failed (none succeeded).
 */
export function groupState(members: readonly MemberProgress[], cancelled: boolean): GroupState {
  if (members.some((member) => active.has(member))) {
    return members.every((member) => member === 'pending' || member === 'queued') ? 'queued' : 'running';
  }
  const succeeded = members.filter((member) => member === 'succeeded').length;
  if (succeeded === members.length) return 'complete';
  if (succeeded > 0) return 'partial';
  return cancelled ? 'cancelled' : 'failed';
}

/** A member's state as the contract shows it: a pending member is queued (pending is not a member state). */
export function shownMemberState(member: MemberProgress): MemberState {
  return member === 'pending' ? 'queued' : member;
}
