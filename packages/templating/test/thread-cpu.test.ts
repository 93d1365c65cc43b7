// The deadline's verdict: CPU time decides whether a template used too much time; wall time
// alone only ever says the machine was too busy.
import { describe, expect, it } from 'vitest';
import { overrunVerdict, threadCpuMs } from '../src/thread-cpu.mjs';

describe('overrunVerdict', () => {
  const limits = { timeMs: 1_000, safetyMs: 10_000 };

  it('keeps going until timeMs of wall time has passed', () => {
    expect(overrunVerdict({ ...limits, wallMs: 900, cpuMs: 900 })).toBeNull();
    expect(overrunVerdict({ ...limits, wallMs: 1_000, cpuMs: null })).toBeNull();
  });

  it('is template_timeout once the thread used more than timeMs of CPU, however long the wall time', () => {
    expect(overrunVerdict({ ...limits, wallMs: 1_020, cpuMs: 1_010 })).toBe('template_timeout');
    expect(overrunVerdict({ ...limits, wallMs: 30_000, cpuMs: 1_010 })).toBe('template_timeout');
  });

  it('under timeMs of CPU: keeps going until the safety net, then overloaded, never template_timeout', () => {
    expect(overrunVerdict({ ...limits, wallMs: 5_000, cpuMs: 400 })).toBeNull();
    expect(overrunVerdict({ ...limits, wallMs: 9_999, cpuMs: 1_000 })).toBeNull();
    expect(overrunVerdict({ ...limits, wallMs: 10_001, cpuMs: 400 })).toBe('overloaded');
  });

  it('without a CPU reading, wall time past timeMs decides', () => {
    expect(overrunVerdict({ ...limits, wallMs: 1_001, cpuMs: null })).toBe('template_timeout');
  });
});

describe('threadCpuMs', () => {
  it.runIf(process.platform === 'linux')('counts this thread\'s CPU time, not time spent waiting', async () => {
    const before = threadCpuMs() as number;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterSleep = threadCpuMs() as number;
    expect(afterSleep - before).toBeLessThan(100);
    let spins = 0;
    while ((threadCpuMs() as number) - afterSleep < 50) spins += 1;
    expect(spins).toBeGreaterThan(0);
    expect(threadCpuMs(null)).toBeNull();
  });
});
