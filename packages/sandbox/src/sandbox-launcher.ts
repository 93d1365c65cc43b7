// How this machine starts a program that handles tenant bytes (the browser, pdftoppm,
// ots-sanitize, the image decoder), decided once per process: as which account, under which
// system-call filter, and whether bubblewrap can give it a filesystem and process view of its
// own. Without bubblewrap or user namespaces nothing is started, whatever user the service
// runs as, unless a developer says so explicitly: a tenant's render must never quietly run
// with the service's own view of the machine.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureSystemAccount, type SystemAccount } from '@svc/system-accounts';
import { sandboxedCommand, SETPRIV } from './sandbox-command.ts';
import { PERL, SANDBOX_SETUP_CALLS, seccompArch, seccompLauncher } from './seccomp-filter.ts';

/** The account sandboxed programs run as when the service is root: it owns nothing of the service. */
export const SANDBOX_ACCOUNT = 'svc-chromium';
/** Debian's bubblewrap: an unprivileged user-namespace sandbox. */
export const BWRAP = '/usr/bin/bwrap';
/** Set to 1, sandboxed programs run without bubblewrap where it cannot run: for development only. */
export const UNSANDBOXED_DEV_FLAG = 'SVC_UNSANDBOXED_DEV';

export interface SandboxLauncher {
  /** The account to switch to (the service is root); null: the service's own user. */
  account: SystemAccount | null;
  /** Whether setpriv is there: it switches the account and sets no_new_privs before anything else runs. */
  setpriv: boolean;
  /** bubblewrap, or null when running without it in development (UNSANDBOXED_DEV_FLAG). */
  bwrap: string | null;
  /** The seccomp launcher's command prefix, or null on an architecture the filter is not built for. */
  filter: string[] | null;
  /** The same for bubblewrap itself: the filter less the calls it builds the sandbox with. */
  setupFilter: string[] | null;
}

export class SandboxUnavailableError extends Error {
  constructor() {
    super(`bubblewrap (${BWRAP}) with user namespaces is needed to run tenant content; ${UNSANDBOXED_DEV_FLAG}=1 runs without it, for development only`);
    this.name = 'SandboxUnavailableError';
  }
}

/** This process's launcher, decided on first use; throws SandboxUnavailableError (and decides again next time) when there is none. */
export function sandboxLauncher(): SandboxLauncher {
  launcher ??= decideLauncher(process.env);
  return launcher;
}
let launcher: SandboxLauncher | undefined;

/**
 * Decides the launcher: as root the sandbox account (created if missing) through setpriv, the
 * seccomp filter where it is built (perl-base is part of every Debian system; without it
 * nothing starts unfiltered), and bubblewrap if a trial sandbox starts.
 */
export function decideLauncher(env: Readonly<Record<string, string | undefined>>, bwrap: string = BWRAP): SandboxLauncher {
  const account = process.getuid?.() === 0 ? ensureSystemAccount(SANDBOX_ACCOUNT) : null;
  const setpriv = existsSync(SETPRIV);
  if (account && !setpriv) throw new Error(`${SETPRIV} is needed to run sandboxed programs as ${account.name}`);
  const target = seccompArch();
  if (target && !existsSync(PERL)) throw new Error(`${PERL} is needed to filter sandboxed programs' system calls`);
  const filter = target ? seccompLauncher(target) : null;
  const setupFilter = target ? seccompLauncher(target, SANDBOX_SETUP_CALLS) : null;
  const decided: SandboxLauncher = { account, setpriv, bwrap, filter, setupFilter };
  if (sandboxStarts(decided)) return decided;
  if (env[UNSANDBOXED_DEV_FLAG] === '1') return { ...decided, bwrap: null };
  throw new SandboxUnavailableError();
}

/** Whether bubblewrap is there and can build a sandbox as the launcher's account (user namespaces on). */
function sandboxStarts(candidate: SandboxLauncher): boolean {
  if (!candidate.bwrap || !existsSync(candidate.bwrap)) return false;
  const { command, args } = sandboxedCommand({ command: '/usr/bin/true', args: [], network: 'none' }, { ...candidate, filter: null, setupFilter: null });
  const env: Record<string, string> = { PATH: '/usr/bin:/bin' };
  try {
    execFileSync(command, args, { stdio: 'ignore', cwd: '/', env: env as NodeJS.ProcessEnv, timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}
