// drawCodesInThread: the same drawings as drawCode, made on a worker thread so the caller's event
// loop keeps running, and a job that overruns its time ended with the thread replaced.
import { describe, expect, test } from 'vitest';
import { CodeError, drawCode, drawCodesInThread, type DrawCodeInput } from '../src/index.mjs';

const requests: DrawCodeInput[] = [
  { kind: 'qr', text: 'https://example.com/i/2026-0042', options: { ecc: 'H', size: '30mm' } },
  { kind: 'ean13', text: '4006381333931' },
  { kind: 'code128', text: 'SHIP-2026/0042', options: { humanReadable: true } },
];

/** A Data Matrix of this many bytes costs bwip-js a few hundred ms of CPU; each a value of its own, so the thread's drawing cache answers none. */
const largeCode = (index: number): DrawCodeInput => ({ kind: 'datamatrix', text: `${index} ${'x'.repeat(1500)}` });

describe('drawCodesInThread', () => {
  test('draws each code as drawCode does, in order', async () => {
    const result = await drawCodesInThread(requests, { timeoutMs: 30_000 });
    expect(result).toEqual({ outcome: 'drawn', drawings: requests.map((request) => drawCode(request)) });
  });

  test('the first code that cannot be drawn: its index and the CodeError drawCode throws', async () => {
    const wrong: DrawCodeInput = { kind: 'ean13', text: '4006381333932' };
    const result = await drawCodesInThread([requests[0]!, wrong, { kind: 'upca', text: 'x' }], { timeoutMs: 30_000 });
    expect(result.outcome).toBe('refused');
    if (result.outcome !== 'refused') return;
    expect(result.index).toBe(1);
    expect(result.error).toBeInstanceOf(CodeError);
    expect(() => drawCode(wrong)).toThrow(result.error.message);
    expect(result.error).toMatchObject({ field: 'value', reason: 'check_digit' });
    expect(result.error.message).toBe('value: wrong check digit 2: the EAN-13 check digit of these digits is 1');
  });

  test('the event loop keeps running while a large code is drawn', async () => {
    // warm: the thread and its encoder are loaded
    await drawCodesInThread([requests[1]!], { timeoutMs: 30_000 });
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    const startedAt = performance.now();
    const result = await drawCodesInThread([largeCode(0)], { timeoutMs: 60_000 });
    const elapsed = performance.now() - startedAt;
    clearInterval(ticker);
    expect(result.outcome).toBe('drawn');
    // drawn on this thread, the interval would not fire at all until the drawing is done; on a
    // busy machine it fires less often than every 5 ms, but it fires
    expect(elapsed).toBeGreaterThan(50);
    expect(ticks).toBeGreaterThanOrEqual(2);
  });

  test('a job past its time ends at the code being drawn; the next job gets a new thread', async () => {
    // a few large codes: well past the time on any machine
    const result = await drawCodesInThread([requests[1]!, largeCode(1), largeCode(2), largeCode(3), largeCode(4), requests[0]!], { timeoutMs: 200 });
    expect(result.outcome).toBe('timed_out');
    if (result.outcome !== 'timed_out') return;
    // the small code first is drawn within the time; a large one is being drawn when it runs out
    expect(result.index).toBeGreaterThanOrEqual(1);
    expect(result.index).toBeLessThanOrEqual(4);
    // jobs after it, also ones queued behind it, are drawn
    const [next, queued] = await Promise.all([drawCodesInThread([requests[0]!], { timeoutMs: 30_000 }), drawCodesInThread([requests[2]!], { timeoutMs: 30_000 })]);
    expect(next).toEqual({ outcome: 'drawn', drawings: [drawCode(requests[0]!)] });
    expect(queued).toEqual({ outcome: 'drawn', drawings: [drawCode(requests[2]!)] });
  });
});
