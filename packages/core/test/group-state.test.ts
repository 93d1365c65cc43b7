// The group state rule (docs/decisions/groups.md), over every combination of member states for groups
// of one to three members, cancelled or not, plus the cases a reader would check by hand.
import { describe, expect, it } from 'vitest';
import { groupState, type MemberProgress, shownMemberState } from '../src/groups/group-state.ts';

const progress: MemberProgress[] = ['pending', 'queued', 'running', 'succeeded', 'failed', 'cancelled'];

function combinations(size: number, from = 0): MemberProgress[][] {
  if (size === 0) return [[]];
  return progress.slice(from).flatMap((state, index) => combinations(size - 1, from + index).map((rest) => [state, ...rest]));
}

describe('group state', () => {
  it('follows the documented rule for every combination', () => {
    let checked = 0;
    for (const size of [1, 2, 3]) {
      for (const members of combinations(size)) {
        for (const cancelled of [false, true]) {
          const waiting = members.every((m) => m === 'pending' || m === 'queued');
          const unfinished = members.some((m) => m === 'pending' || m === 'queued' || m === 'running');
          const succeeded = members.filter((m) => m === 'succeeded').length;
          const expected = unfinished
            ? waiting
              ? 'queued'
              : 'running'
            : succeeded === members.length
              ? 'complete'
              : succeeded > 0
                ? 'partial'
                : cancelled
                  ? 'cancelled'
                  : 'failed';
          expect(groupState(members, cancelled), `${members.join(',')} cancelled=${cancelled}`).toBe(expected);
          checked += 1;
        }
      }
    }
    expect(checked).toBe(2 * (6 + 21 + 56));
  });

  it.each([
    [['pending', 'pending'], false, 'queued'],
    [['queued', 'pending'], false, 'queued'],
    [['running', 'pending'], false, 'running'],
    [['succeeded', 'pending'], false, 'running'],
    [['failed', 'queued'], false, 'running'],
    [['succeeded', 'succeeded'], false, 'complete'],
    [['succeeded', 'failed'], false, 'partial'],
    [['succeeded', 'cancelled'], true, 'partial'],
    [['failed', 'failed'], false, 'failed'],
    [['failed', 'cancelled'], true, 'cancelled'],
    [['cancelled', 'cancelled'], true, 'cancelled'],
    [['running', 'cancelled'], true, 'running'],
  ] as const)('%j cancelled=%s is %s', (members, cancelled, state) => {
    expect(groupState(members, cancelled)).toBe(state);
  });

  it('shows a pending member as queued', () => {
    expect(shownMemberState('pending')).toBe('queued');
    expect(shownMemberState('running')).toBe('running');
  });
});
