// Resident memory of the service's process trees as /proc shows it: web, worker, and every
// process they started (Chromium's browser, zygotes, renderers, utilities).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of /proc/PID/stat after the command name (state, ppid, ...), or null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  return !fields || fields[0] === 'Z' ? null : Number(fields[1]);
}

/**
 * A memory figure of a process, in KiB: VmRSS (resident) or RssAnon (its anonymous part: no
 * shared memory segments, no mapped files) of /proc/PID/status, or Pss (proportional set size)
 * of /proc/PID/smaps_rollup.
 */
function memoryKib(pid: number, file: 'status' | 'smaps_rollup', field: 'VmRSS' | 'RssAnon' | 'Pss'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pids of these processes and all their live descendants. */
export function processTree(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const pending = [...roots];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Summed resident set size of the trees, in MiB, and how many processes it counts. */
export function treeRss(roots: number[]): { mib: number; processes: number } {
  const pids = processTree(roots);
  return { mib: rssMib(pids), processes: pids.length };
}

/** Summed resident set size of exactly these processes, in MiB. */
export function rssMib(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + memoryKib(pid, 'status', 'VmRSS'), 0) / 1024;
}

/**
 * Summed anonymous resident memory of exactly these processes, in MiB: what a leak grows, without
 * the shared memory (PostgreSQL's shared buffers, Chromium's shared segments) that RSS counts
 * once per process that touched it.
 */
export function anonMib(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + memoryKib(pid, 'status', 'RssAnon'), 0) / 1024;
}

/**
 * Summed proportional set size of exactly these processes, in MiB: each resident page divided
 * among the processes that share it, so a sum over a process family counts every page once
 * (PostgreSQL's shared buffers touched by twenty backends count once, not twenty times).
 */
export function pssMib(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + memoryKib(pid, 'smaps_rollup', 'Pss'), 0) / 1024;
}

/** CPU time of a process in milliseconds (/proc ticks of 10 ms), user + system. */
export interface CpuTime {
  /** its own */
  own: number;
  /** its children's that ended and that it reaped (a closed context's renderer, a replaced browser) */
  reaped: number;
}

export function cpuTime(pid: number): CpuTime {
  // a process that ended while we looked has spent nothing
  return cpuTimeOf(statFields(pid) ?? []);
}

function cpuTimeOf(fields: string[]): CpuTime {
  return { own: (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10, reaped: (Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) * 10 };
}

/** One reading of a process: its key (pid and start time, so a reused pid is another process), its parent's pid and its CPU time; null once it is gone. */
export function processSample(pid: number): { key: string; parent: number; time: CpuTime } | null {
  const fields = statFields(pid);
  return fields ? { key: `${pid}:${fields[19]}`, parent: Number(fields[1]), time: cpuTimeOf(fields) } : null;
}

/** CPU these processes and the children they reaped have used so far, in milliseconds. */
export function cpuMs(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const time = cpuTime(pid);
    return sum + time.own + time.reaped;
  }, 0);
}

/** CPU the whole machine has spent so far (every core, not idle), in milliseconds. */
export function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}

/** The command line of a process, with arguments separated by spaces ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** An embedded PostgreSQL cluster's processes: the postmaster its pid file names, and its children. */
export function clusterProcesses(clusterDir: string): number[] {
  try {
    const postmaster = Number(readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return processTree([postmaster]);
  } catch {
    // the cluster is not running
    return [];
  }
}

/** Adds each part's figure of `spent` to `into`'s. */
export function addParts(into: Record<string, number>, spent: Record<string, number>): void {
  for (const [part, value] of Object.entries(spent)) into[part] = (into[part] ?? 0) + value;
}

/** Parts and their figures for a line of the report: `web 3.1, worker 6.2`. */
export function formatParts(values: Record<string, number>, digits: number): string {
  return Object.entries(values)
    .map(([part, value]) => `${part} ${value.toFixed(digits)}`)
    .join(', ');
}

/** What each part spent between two samples of the same parts, per render. */
export function perRender(before: Record<string, number>, after: Record<string, number>, renders: number): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((part) => [part, (after[part]! - (before[part] ?? 0)) / renders]));
}
