// Looking at the machine the way a sandboxed process sees it. As root the command runs inside
// the process's mount namespace (nsenter). A normal user may not enter a mount namespace its
// sandbox made, but may look through /proc/<pid>/root, which resolves every path in that
// process's mount namespace: each absolute path argument is read through it.
import { execFileSync } from 'node:child_process';

/** Runs `command` with `args` against the filesystem `pid` sees; throws with the command's error output when it fails. */
export function inViewOf(pid: number, command: string, args: string[]): string {
  if (process.getuid?.() === 0) {
    return execFileSync('/usr/bin/nsenter', ['-t', String(pid), '-m', '--', command, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }
  const seen = args.map((arg) => (arg.startsWith('/') ? `/proc/${pid}/root${arg}` : arg));
  return execFileSync(command, seen, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
