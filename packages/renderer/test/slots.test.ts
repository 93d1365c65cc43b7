// The pool's slots: a freed slot goes to the longest-waiting job that is not bulk; bulk work
// (group members) starts only while no single render holds or waits for a slot, and holds at
// most all but one slot.
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

  it('bulk work holds at most all but one slot, so a single render that arrives starts at once', async () => {
    const slots = new Slots(3);
    const started: string[] = [];
    const take = (name: string, bulk: boolean) => slots.acquire(bulk).then((release) => (started.push(name), release));
    const bulk1 = take('bulk 1', true);
    const bulk2 = take('bulk 2', true);
    void take('bulk 3', true);
    await Promise.all([bulk1, bulk2]);
    await Promise.resolve();
    expect(started).toEqual(['bulk 1', 'bulk 2']);
    expect(slots.held).toBe(2);
    const single = await take('single', false);
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single']);
    // the third bulk job waits while the single renders, even when a bulk slot frees
    (await bulk1)();
    await Promise.resolve();
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single']);
    single();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single', 'bulk 3']);
  });

  it('with one slot, bulk work still goes on between single renders', async () => {
    const slots = new Slots(1);
    const order: string[] = [];
    const first = await slots.acquire();
    const bulk = slots.acquire(true).then((release) => (order.push('bulk'), release()));
    first();
    await bulk;
    expect(order).toEqual(['bulk']);
    expect(slots.held).toBe(0);
  });
});
