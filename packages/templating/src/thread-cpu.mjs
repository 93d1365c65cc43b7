// CPU time of one thread, so a deadline can tell a template that used its time from one that
// waited for a busy machine. Node 20 has no per-thread CPU clock (process.cpuUsage() counts every
// thread of the process; process.threadCpuUsage() arrived in Node 23.9), so it is read from
// Linux's /proc: utime and stime of the thread's stat file, in clock ticks. A synchronous read
// runs on the calling thread, so /proc/thread-self is the caller's own thread.
import { readFileSync, readlinkSync } from 'node:fs';

// USER_HZ: 100 on every Linux architecture Node runs on (what sysconf(_SC_CLK_TCK) answers).
const MS_PER_TICK = 10;

/**
 * The calling thread's id (Linux), for another thread to read its CPU time; null elsewhere.
 * @returns {number | null}
 */
export function currentThreadId() {
  try {
    const match = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds (user and system, 10 ms steps) a thread of this process has used; the
 * calling thread when no id is given. null when the platform cannot tell (no /proc).
 * @param {number | null} [threadId]
 * @returns {number | null}
 */
export function threadCpuMs(threadId) {
  try {
    if (threadId === null) return null;
    const stat = readFileSync(threadId === undefined ? '/proc/thread-self/stat' : `/proc/self/task/${threadId}/stat`, 'latin1');
    // fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the name
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
  } catch {
    return null;
  }
}

/**
 * What an evaluation still running after `wallMs` has come to, by the CPU time its thread used
 * (`cpuMs`, null when unknown): over `timeMs` of CPU, the template's own doing
 * (template_timeout); under it past `safetyMs` of wall time, a machine too busy to run it
 * (overloaded); else null, keep going. Without a CPU reading, wall time past timeMs decides.
 * @param {{ wallMs: number, cpuMs: number | null, timeMs: number, safetyMs: number }} spent
 * @returns {'template_timeout' | 'overloaded' | null}
 */
export function overrunVerdict({ wallMs, cpuMs, timeMs, safetyMs }) {
  if (wallMs <= timeMs) return null;
  if (cpuMs === null || cpuMs > timeMs) return 'template_timeout';
  return wallMs > safetyMs ? 'overloaded' : null;
}
