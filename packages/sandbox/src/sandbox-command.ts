// The command line that runs a program in the sandbox: setpriv (the sandbox account when the
// service is root, no_new_privs), the seccomp launcher with the filter less the mount calls,
// then bubblewrap, which builds a view of the machine holding only the system's programs,
// libraries and fonts plus the paths the program is given, in namespaces of its own, then the
// seccomp launcher again with the whole filter, then the program. Each execs the next: setpriv
// and the seccomp launchers keep their pid, bubblewrap stays as the parent of the sandbox's
// processes. The data directory, the checkout, home directories, the embedded
// database's socket and every other process of the machine are simply not there.
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import type { SandboxLauncher } from './sandbox-launcher.ts';

/** util-linux's setpriv: switches the account and sets no_new_privs, then execs the next program in place (same pid). */
export const SETPRIV = '/usr/bin/setpriv';

export interface SandboxSpec {
  /** An absolute path. */
  command: string;
  args: readonly string[];
  /**
   * Host paths the program may read, mounted read-only at the same place, or a mount of a host
   * path (`source`, which the sandbox account must be able to reach) at another (`target`).
   */
  readOnly?: readonly (string | ReadOnlyMount)[];
  /** Host paths the program may write, at the same place; as root they must belong to the sandbox account. */
  writable?: readonly string[];
  /**
   * 'none': a network namespace of its own, loopback only (the parsers). 'shared': the host's,
   * so the browser reaches its jobs' tripwire listeners on 127.77.0.1; what a page may reach
   * is decided by the browser's own layers (proxy, resolver rules, request interception).
   */
  network: 'none' | 'shared';
  /**
   * The size of the sandbox's own /tmp, a tmpfs: memory whatever is written there pins, so a
   * program gone rogue cannot fill the machine's. defaultTmpBytes when not given.
   */
  tmpBytes?: number;
}

/** A sandbox's /tmp unless its spec says otherwise: more than any parser of tenant bytes writes there. */
export const defaultTmpBytes = 64 * 1024 * 1024;

export interface ReadOnlyMount {
  source: string;
  target: string;
}

export interface SandboxedCommand {
  command: string;
  args: string[];
}

/** What every sandboxed program sees of /etc and /var: the loader's cache, fonts, time zone, account names. */
const SYSTEM_FILES = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/fonts',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/etc/passwd',
  '/etc/group',
  // fontconfig's caches: without them every browser start would scan every font again
  '/var/cache/fontconfig',
];

/** The top-level directories a merged-/usr system makes symlinks into /usr (real directories on older systems). */
const USR_ALIASES = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** Builds the command line; without bubblewrap (development only), the account switch and the filter alone. */
export function sandboxedCommand(spec: SandboxSpec, launcher: SandboxLauncher): SandboxedCommand {
  const program = [...(launcher.filter ?? []), spec.command, ...spec.args];
  const sandboxed = launcher.bwrap ? [...(launcher.setupFilter ?? []), launcher.bwrap, ...bwrapArguments(spec), '--', ...program] : program;
  if (!launcher.setpriv) {
    if (launcher.account) throw new Error(`${SETPRIV} is needed to run sandboxed programs as ${launcher.account.name}`);
    return { command: sandboxed[0]!, args: sandboxed.slice(1) };
  }
  const switchAccount = launcher.account ? [`--reuid=${launcher.account.uid}`, `--regid=${launcher.account.gid}`, '--clear-groups'] : [];
  return { command: SETPRIV, args: [...switchAccount, '--no-new-privs', '--', ...sandboxed] };
}

function bwrapArguments(spec: SandboxSpec): string[] {
  return [
    ...systemView(),
    // a /proc of the sandbox's own PID namespace: no other process's environ or memory is there
    '--proc', '/proc',
    '--dev', '/dev',
    '--size', String(spec.tmpBytes ?? defaultTmpBytes), '--tmpfs', '/tmp',
    ...(spec.readOnly ?? []).flatMap((mount) => (typeof mount === 'string' ? ['--ro-bind', mount, mount] : ['--ro-bind', mount.source, mount.target])),
    ...(spec.writable ?? []).flatMap((path) => ['--bind', path, path]),
    '--unshare-user', '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try',
    ...(spec.network === 'none' ? ['--unshare-net'] : []),
    // no --new-session: the browser's process group must stay the one the pool kills as a
    // whole. The caller starts every sandbox in a session of its own (puppeteer's detached
    // launch, runSandboxed), so no sandboxed process has a controlling terminal to write to.
    '--die-with-parent',
    '--chdir', '/',
  ];
}

let system: string[] | undefined;
/** /usr read-only, its aliases as on the host, and the few system files every program needs. */
function systemView(): string[] {
  system ??= [
    '--ro-bind', '/usr', '/usr',
    ...USR_ALIASES.flatMap((path) => {
      if (!existsSync(path)) return [];
      return lstatSync(path).isSymbolicLink() ? ['--symlink', readlinkSync(path), path] : ['--ro-bind', path, path];
    }),
    ...SYSTEM_FILES.flatMap((path) => ['--ro-bind-try', path, path]),
  ];
  return system;
}
