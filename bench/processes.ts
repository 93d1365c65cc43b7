// Resident memory of the service's process trees as /proc shows it: web, worker, and every
// process they started (Chromium's browser, zygotes, renderers, utilities).
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name: state, ppid, ...
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state === 'Z' ? null : Number(ppid);
  } catch {
    return null;
  }
}

function rssKib(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
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
  return { mib: pids.reduce((sum, pid) => sum + rssKib(pid), 0) / 1024, processes: pids.length };
}

/** CPU time these processes have used so far, in milliseconds (user + system, /proc ticks of 10 ms). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended while we looked
    }
  }
  return ticks * 10;
}

/** The command line of a process, with arguments separated by spaces ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
