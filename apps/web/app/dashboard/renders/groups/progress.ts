import type { GroupMemberView, RenderGroupView } from '@svc/core';

/** Members that have ended (succeeded, failed or cancelled), out of all. */
export function finishedMembers(view: RenderGroupView): { finished: number; succeeded: number; failed: number; total: number } {
  const count = (test: (member: GroupMemberView) => boolean) => view.members.filter(test).length;
  return {
    finished: count((member) => member.state !== 'queued' && member.state !== 'running'),
    succeeded: count((member) => member.state === 'succeeded'),
    failed: count((member) => member.state === 'failed'),
    total: view.members.length,
  };
}

/** Whether the group still has members waiting or running (the page then keeps refreshing). */
export const groupActive = (view: RenderGroupView) => view.state === 'queued' || view.state === 'running';
