// Chromium's processes as /proc shows them: every process of a pool carries its profile
// directory on its command line or belongs to the browser's process group.
import { readdirSync, readFileSync } from 'node:fs';
import type { Renderer } from '../../src/index.ts';

/** Live (non-zombie) processes of the browser with this pid and profile; `only` filters by command line. */
export function browserProcesses(browserPid: number, userDataDir: string, only: (cmdline: string) => boolean = () => true): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // fields after the command name: state, ppid, pgrp ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if ((cmdline.includes(userDataDir) || Number(pgrp) === browserPid) && only(cmdline)) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** CPU time a process has used so far, in clock ticks (utime + stime); 0 once it is gone. */
export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** A process and every process below it, by walking parent ids in /proc. */
export function processTree(rootPid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended while we looked
    }
  }
  const tree = [rootPid];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.includes(parent) && !tree.includes(pid)) {
        tree.push(pid);
        grew = true;
      }
    }
  }
  return tree;
}

/**
 * Runs `body` with the pid the pool started (the launch chain's, leader of the browser's
 * process group) while a render whose script keeps its renderer busy for a few seconds is in flight.
 */
export async function duringRender<T>(renderer: Renderer, body: (browserPid: number) => Promise<T>): Promise<T> {
  const rendering = renderer.renderPdf({
    html: '<p>busy</p><script>const until = Date.now() + 4000; while (Date.now() < until) {}</script>',
    pdf: {},
    viewport: { width: 800, height: 600, device_scale_factor: 1 },
    javascript: 'enabled',
  });
  try {
    const browserPid = renderer.status().browserPid;
    if (browserPid === null) throw new Error('the pool has no browser');
    return await body(browserPid);
  } finally {
    await rendering;
  }
}
