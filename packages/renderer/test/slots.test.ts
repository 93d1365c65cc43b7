// The pool's slots: a freed slot goes to the longest-waiting single render; bulk work (group
// members) starts only while no single render holds or waits for a slot and none ended in the
// last moment, holds at most all but one slot (every slot only while single renders have been quiet
// and its renders are short), and stops yielding once it has waited long enough.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Slots } from '../src/browser/slots.ts';

const graceMs = 50;
const agingMs = 500;
const quietMs = 1_000;
const shortBulkMs = 250;

function slotsOf(size: number) {
  const slots = new Slots(size, { graceMs, agingMs, quietMs, shortBulkMs, now: () => Date.now() });
  const started: string[] = [];
  const take = (name: string, bulk = false) => slots.acquire(bulk).then((release) => (started.push(name), release));
  return { slots, started, take };
}

describe('pool slots', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('grants a waiting single render before bulk jobs that waited longer', async () => {
    const { slots, started, take } = slotsOf(1);
    const held = await take('bulk 0', true);
    const bulk1 = take('bulk 1', true);
    const bulk2 = take('bulk 2', true);
    const single = take('single');
    expect(slots.queued).toBe(3);
    held();
    (await single)();
    await vi.advanceTimersByTimeAsync(graceMs);
    (await bulk1)();
    (await bulk2)();
    expect(started).toEqual(['bulk 0', 'single', 'bulk 1', 'bulk 2']);
  });

  it('keeps arrival order among single renders', async () => {
    const { started, take } = slotsOf(1);
    const held = await take('first');
    const rest = ['a', 'b', 'c'].map((name) => take(name));
    held();
    for (const next of rest) (await next)();
    expect(started).toEqual(['first', 'a', 'b', 'c']);
  });

  it('bulk work holds at most all but one slot, so a single render that arrives starts at once', async () => {
    const { slots, started, take } = slotsOf(3);
    const bulk1 = await take('bulk 1', true);
    await take('bulk 2', true);
    void take('bulk 3', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['bulk 1', 'bulk 2']);
    expect(slots.held).toBe(2);
    const single = await take('single');
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single']);
    // a bulk slot frees while the single renders: the third bulk job still waits
    bulk1();
    await vi.advanceTimersByTimeAsync(graceMs * 2);
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single']);
    // the single ends: after the grace the bulk job starts
    single();
    await vi.advanceTimersByTimeAsync(graceMs - 10);
    expect(started).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(10);
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single', 'bulk 3']);
  });

  it('a single render sent within the grace goes before bulk work that waited', async () => {
    const { started, take } = slotsOf(2);
    (await take('single 1'))();
    void take('bulk', true);
    await vi.advanceTimersByTimeAsync(graceMs / 2);
    const single2 = await take('single 2');
    expect(started).toEqual(['single 1', 'single 2']);
    single2();
    await vi.advanceTimersByTimeAsync(graceMs);
    expect(started).toEqual(['single 1', 'single 2', 'bulk']);
  });

  it('a stream of single renders slows bulk work but never stops it', async () => {
    const { started, take } = slotsOf(2);
    // a single render always holds a slot from the start
    let single = await take('single');
    void take('bulk', true);
    for (let step = 0; step < 10; step++) {
      await vi.advanceTimersByTimeAsync(100);
      single();
      single = await take('single');
    }
    // the bulk job aged past agingMs and started beside single renders, not before
    expect(started.filter((name) => name === 'bulk')).toHaveLength(1);
    expect(started.indexOf('bulk')).toBe(agingMs / 100);
  });

  it('with one slot, bulk work still goes on between single renders', async () => {
    const { slots, started, take } = slotsOf(1);
    const first = await take('single');
    const bulk = take('bulk', true);
    first();
    await vi.advanceTimersByTimeAsync(graceMs);
    (await bulk)();
    expect(started).toEqual(['single', 'bulk']);
    expect(slots.held).toBe(0);
  });

  it('with single renders quiet and bulk renders short, bulk work takes every slot; a single render then waits for one bulk render only', async () => {
    const { slots, started, take } = slotsOf(2);
    (await take('single'))();
    const bulk1Started = take('bulk 1', true);
    const bulk2 = take('bulk 2', true);
    await vi.advanceTimersByTimeAsync(quietMs);
    const bulk1 = await bulk1Started;
    // no bulk render has ended yet: how long they take is not known, the last slot stays free
    expect(started).toEqual(['single', 'bulk 1']);
    await vi.advanceTimersByTimeAsync(100);
    bulk1();
    const release2 = await bulk2;
    const bulk3 = take('bulk 3', true);
    await vi.advanceTimersByTimeAsync(0);
    // bulk 1 held its slot over a second: too long to give bulk work the last slot
    expect(started).toEqual(['single', 'bulk 1', 'bulk 2']);
    await vi.advanceTimersByTimeAsync(100);
    release2();
    const release3 = await bulk3;
    void take('bulk 4', true);
    await vi.advanceTimersByTimeAsync(0);
    // bulk 2 held its slot 100 ms and no single render came for over a second: bulk takes both slots
    expect(started).toEqual(['single', 'bulk 1', 'bulk 2', 'bulk 3', 'bulk 4']);
    expect(slots.held).toBe(2);
    const single = take('single 2');
    void take('bulk 5', true);
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toHaveLength(5);
    // the first bulk render to end gives its slot to the single render, and bulk is held to one slot again
    release3();
    const release = await single;
    expect(started.at(-1)).toBe('single 2');
    release();
    await vi.advanceTimersByTimeAsync(quietMs - 1);
    expect(started).toHaveLength(6);
    // a quiet second after the single render, the last slot is bulk work's again
    await vi.advanceTimersByTimeAsync(1);
    expect(started.at(-1)).toBe('bulk 5');
  });

  it('waits out the quiet time before bulk work takes the last slot', async () => {
    const { started, take } = slotsOf(2);
    const first = await take('bulk 1', true);
    await vi.advanceTimersByTimeAsync(10);
    first();
    await take('bulk 2', true);
    const single = await take('single');
    single();
    void take('bulk 3', true);
    await vi.advanceTimersByTimeAsync(quietMs - 10);
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single']);
    await vi.advanceTimersByTimeAsync(10);
    expect(started).toEqual(['bulk 1', 'bulk 2', 'single', 'bulk 3']);
  });
});
