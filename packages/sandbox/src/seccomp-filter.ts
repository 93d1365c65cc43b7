// A seccomp filter for every sandboxed process: the browser and the parsers of tenant bytes.
// Chromium filters the system calls of its renderers and GPU process, never its own: the
// browser process, and the network and utility processes it forks without a filter of their
// own, may call anything the kernel lets an unprivileged account call; pdftoppm, ots-sanitize
// and the image decoder have no filter of their own at all. This deny-list takes away what
// none of them needs and what kernel exploits reach for (modules, kexec, keyrings, bpf, perf,
// userfaultfd, ptrace, the mount API, the clock). It is installed after bubblewrap has built
// the sandbox (which needs the mount API), stays on across exec and is inherited by every
// process the sandboxed program starts; Chromium stacks its own stricter filters on top for
// the renderers. What its namespace sandbox needs (clone and unshare with new user, PID and
// network namespaces, chroot, setns) is left alone.
import { arch } from 'node:os';

/** Calls refused, by name; each architecture below gives the numbers it has of them. */
export const DENIED_CALLS = [
  'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module', 'reboot',
  'swapon', 'swapoff', 'acct', 'settimeofday', 'clock_settime', 'clock_adjtime', 'adjtimex',
  'iopl', 'ioperm', 'syslog', 'quotactl', 'quotactl_fd', 'lookup_dcookie', 'bpf',
  'perf_event_open', 'userfaultfd', 'keyctl', 'add_key', 'request_key', 'open_by_handle_at',
  'name_to_handle_at', 'ptrace', 'process_vm_readv', 'process_vm_writev', 'mount', 'umount2',
  'pivot_root', 'move_mount', 'open_tree', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr',
] as const;
export type DeniedCall = (typeof DENIED_CALLS)[number];

/**
 * What bubblewrap calls to build the sandbox. Bubblewrap itself runs under the filter without
 * these (so its processes, the one waiting outside and the reaper inside, are filtered too);
 * the program inside gets the whole list stacked on top.
 */
export const SANDBOX_SETUP_CALLS: readonly DeniedCall[] = ['mount', 'umount2', 'pivot_root'];

export interface SeccompArch {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it */
  auditArch: number;
  /** __NR_prctl, which the launcher calls to install the filter */
  prctl: number;
  /** the numbers of the denied calls this architecture has (x86's port I/O has no arm64 twin) */
  calls: Partial<Record<DeniedCall, number>>;
}

// from the kernel's unistd_64.h (x86_64) and asm-generic/unistd.h (arm64)
export const SECCOMP_ARCHES: Record<string, SeccompArch> = {
  x64: {
    auditArch: 0xc000003e,
    prctl: 157,
    calls: {
      kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176, reboot: 169,
      swapon: 167, swapoff: 168, acct: 163, settimeofday: 164, clock_settime: 227, clock_adjtime: 305, adjtimex: 159,
      iopl: 172, ioperm: 173, syslog: 103, quotactl: 179, quotactl_fd: 443, lookup_dcookie: 212, bpf: 321,
      perf_event_open: 298, userfaultfd: 323, keyctl: 250, add_key: 248, request_key: 249, open_by_handle_at: 304,
      name_to_handle_at: 303, ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, mount: 165, umount2: 166,
      pivot_root: 155, move_mount: 429, open_tree: 428, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
    },
  },
  arm64: {
    auditArch: 0xc00000b7,
    prctl: 167,
    calls: {
      kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106, reboot: 142,
      swapon: 224, swapoff: 225, acct: 89, settimeofday: 170, clock_settime: 112, clock_adjtime: 266, adjtimex: 171,
      syslog: 116, quotactl: 60, quotactl_fd: 443, lookup_dcookie: 18, bpf: 280,
      perf_event_open: 241, userfaultfd: 282, keyctl: 219, add_key: 217, request_key: 218, open_by_handle_at: 265,
      name_to_handle_at: 264, ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, mount: 40, umount2: 39,
      pivot_root: 41, move_mount: 429, open_tree: 428, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
    },
  },
};

/** This machine's numbers, or null where the filter is not built (sandboxed programs then run without it). */
export function seccompArch(nodeArch: string = arch()): SeccompArch | null {
  return SECCOMP_ARCHES[nodeArch] ?? null;
}

// classic BPF opcodes and seccomp constants (linux/filter.h, linux/seccomp.h)
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
/** offsets in struct seccomp_data */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
/** x32 calls are x86_64 calls with this bit set: refused wholesale, so no number slips past as its twin */
const X32_SYSCALL_BIT = 0x40000000;

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/**
 * The filter as struct sock_filter[] bytes: another architecture's calls (i386 through int
 * 0x80 on x86_64) and x32 calls are refused, the deny-list fails with EPERM, the rest runs.
 */
export function seccompProgram(target: SeccompArch, allowed: readonly DeniedCall[] = []): Buffer {
  const denied = Object.entries(target.calls).filter(([name]) => !allowed.includes(name as DeniedCall));
  const numbers = [...new Set(denied.map(([, nr]) => nr))];
  // layout: 0 load arch, 1 check arch, 2 load nr, 3 x32 check, 4.. one check per number, allow, deny
  const deny = 4 + numbers.length + 1;
  const program: Instruction[] = [
    { code: LD_W_ABS, jt: 0, jf: 0, k: ARCH_OFFSET },
    { code: JEQ_K, jt: 0, jf: deny - 2, k: target.auditArch },
    { code: LD_W_ABS, jt: 0, jf: 0, k: NR_OFFSET },
    { code: JGE_K, jt: deny - 4, jf: 0, k: X32_SYSCALL_BIT },
    ...numbers.map((nr, index) => ({ code: JEQ_K, jt: deny - (4 + index + 1), jf: 0, k: nr })),
    { code: RET_K, jt: 0, jf: 0, k: RET_ALLOW },
    { code: RET_K, jt: 0, jf: 0, k: RET_ERRNO | EPERM },
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    if (instruction.jt > 255 || instruction.jf > 255) throw new Error('seccomp filter: jump out of range');
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(instruction.jt, index * 8 + 2);
    bytes.writeUInt8(instruction.jf, index * 8 + 3);
    bytes.writeUInt32LE(instruction.k, index * 8 + 4);
  });
  return bytes;
}

/** perl-base is essential on Debian: the one interpreter sure to be there that can call prctl. */
export const PERL = '/usr/bin/perl';

/**
 * A perl program that installs the filter given as hex in its first argument, then execs the
 * rest of its arguments in place: same pid, same open descriptors (the DevTools pipe). It sets
 * no_new_privs itself, which the kernel requires of an unprivileged filter.
 */
export function seccompLauncherScript(target: SeccompArch): string {
  return [
    'my $f = pack("H*", shift @ARGV);',
    // PR_SET_NO_NEW_PRIVS = 38
    `syscall(${target.prctl}, 38, 1, 0, 0, 0) == 0 or die "no_new_privs: $!\\n";`,
    // struct sock_fprog { unsigned short len; struct sock_filter *filter; }; PR_SET_SECCOMP = 22, SECCOMP_MODE_FILTER = 2
    'my $p = pack("S x6 P", length($f) / 8, $f);',
    `syscall(${target.prctl}, 22, 2, $p, 0, 0) == 0 or die "seccomp: $!\\n";`,
    'exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\\n";',
  ].join(' ');
}

/** The command prefix that runs `command args...` under the filter (less the allowed calls): [perl, -e, script, --, hex]. */
export function seccompLauncher(target: SeccompArch, allowed: readonly DeniedCall[] = []): string[] {
  return [PERL, '-e', seccompLauncherScript(target), '--', seccompProgram(target, allowed).toString('hex')];
}
