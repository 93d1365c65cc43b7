// The sandbox's seccomp filter, tried on a real process started the way the browser and the
// parsers are (the account switch, bubblewrap, then the filter's launcher, then the program):
// refused calls fail with EPERM, while everything else, Chromium's namespace sandbox's calls
// included, still works.
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { sandboxedCommand } from '../src/sandbox-command.ts';
import { sandboxLauncher } from '../src/sandbox-launcher.ts';
import { DENIED_CALLS, seccompArch, seccompProgram } from '../src/seccomp-filter.ts';

const target = seccompArch();

/**
 * Makes each call in its arguments (`nr,arg,...`: a number is passed as is, PID as its own pid,
 * anything else as a pointer to the string; missing arguments are 0) and prints `nr=errno`
 * (0 on success). Numbers, not names: perl-base has no syscall.ph.
 */
const PROBE = `
  for my $spec (@ARGV) {
    my ($nr, @args) = split /,/, $spec;
    push @args, 0 while @args < 5;
    @args = map { $_ eq "PID" ? $$ : /^-?\\d+$/ ? $_ + 0 : $_ } @args;
    $! = 0;
    my $r = syscall($nr + 0, @args);
    print "$nr=", ($r == -1 ? $! + 0 : 0), "\\n";
  }
  open my $s, "<", "/proc/self/status" or die; while (<$s>) { print if /^(Seccomp|NoNewPrivs|Uid):/ }
`;

/** Runs the probe as the browser would run: as its account, in its sandbox, with or without the filter. */
function probe(specs: string[], filtered: boolean) {
  const launcher = sandboxLauncher();
  const command = sandboxedCommand(
    { command: '/usr/bin/perl', args: ['-e', PROBE, '--', ...specs], network: 'shared' },
    filtered ? launcher : { ...launcher, filter: null, setupFilter: null },
  );
  const output = execFileSync(command.command, command.args, { encoding: 'utf8', cwd: '/' });
  const errno = new Map(output.match(/^\d+=\d+$/gm)!.map((line) => line.split('=').map(Number) as [number, number]));
  const field = (name: string) => output.match(new RegExp(`^${name}:\\s*(\\S+)`, 'm'))![1];
  return { errno, seccomp: Number(field('Seccomp')), noNewPrivs: Number(field('NoNewPrivs')), uid: Number(field('Uid')) };
}

const EPERM = 1;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWPID = 0x20000000;
const CLONE_NEWNET = 0x40000000;

test.skipIf(!target)('the filter covers every denied call of this architecture, and ends by allowing the rest', () => {
  const program = seccompProgram(target!);
  const ks = Array.from({ length: program.length / 8 }, (_, index) => program.readUInt32LE(index * 8 + 4));
  for (const nr of Object.values(target!.calls)) expect(ks).toContain(nr);
  expect(Object.keys(target!.calls).every((name) => (DENIED_CALLS as readonly string[]).includes(name))).toBe(true);
  // the last two instructions: allow, then errno EPERM
  expect(ks.slice(-2)).toEqual([0x7fff0000, 0x00050001]);
});

test.skipIf(!target)('under the filter every denied call fails with EPERM, as a non-root account with no new privileges', () => {
  const numbers = [...new Set(Object.values(target!.calls))];
  const result = probe(numbers.map(String), true);
  expect(result.seccomp).toBe(2);
  expect(result.noNewPrivs).toBe(1);
  expect(result.uid).not.toBe(0);
  for (const nr of numbers) expect({ nr, errno: result.errno.get(nr) }).toEqual({ nr, errno: EPERM });
});

test.skipIf(!target)('calls an unprivileged account may otherwise make are refused by the filter alone', () => {
  const { calls } = target!;
  // ptrace(PTRACE_TRACEME), keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, create),
  // process_vm_readv of itself with nothing to read, perf_event_open and bpf with no attributes
  const specs = [`${calls.ptrace},0`, `${calls.keyctl},0,-2,1`, `${calls.process_vm_readv},PID`, `${calls.perf_event_open}`, `${calls.bpf},0`];
  const open = probe(specs, false);
  const filtered = probe(specs, true);
  expect(open.seccomp).toBe(0);
  for (const spec of specs) {
    const nr = Number(spec.split(',')[0]);
    expect({ nr, errno: open.errno.get(nr) }).not.toEqual({ nr, errno: EPERM });
    expect({ nr, errno: filtered.errno.get(nr) }).toEqual({ nr, errno: EPERM });
  }
});

test.skipIf(!target)("what Chromium's namespace sandbox needs still works under the filter: new user, PID and network namespaces, then chroot", () => {
  const unshare = target === seccompArch('x64') ? 272 : 97;
  const chroot = target === seccompArch('x64') ? 161 : 51;
  // chroot takes a path: perl passes a string argument as a pointer to it
  const result = probe([`${unshare},${CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET}`, `${chroot},/`], true);
  expect(result.seccomp).toBe(2);
  expect(result.errno.get(unshare)).toBe(0);
  expect(result.errno.get(chroot)).toBe(0);
});
