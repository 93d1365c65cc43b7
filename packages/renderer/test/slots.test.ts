// The pool's slots: a freed slot goes to the longest-waiting job that is not bulk, and to bulk
// work (group members) only when nothing else waits.
import { describe, expect, it } from 'vitest';
import { Slots } from '../src/browser/slots.ts';

describe('pool slots', () => {
  it('grants a waiting single job before bulk jobs that waited longer', async () => {
    const slots = new Slots(1);
    const order: string[] = [];
    const held = await slots.acquire(true);
    const take = (name: string, bulk: boolean) =>
      slots.acquire(bulk).then((release) => {
        order.push(name);
        release();
      });
    const all = Promise.all([take('bulk 1', true), take('bulk 2', true), take('single', false)]);
    expect(slots.queued).toBe(3);
    held();
    await all;
    expect(order).toEqual(['single', 'bulk 1', 'bulk 2']);
  });

  it('keeps arrival order among jobs of one kind', async () => {
    const slots = new Slots(1);
    const order: string[] = [];
    const held = await slots.acquire();
    const take = (name: string) => slots.acquire().then((release) => (order.push(name), release()));
    const all = Promise.all([take('a'), take('b'), take('c')]);
    held();
    await all;
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
