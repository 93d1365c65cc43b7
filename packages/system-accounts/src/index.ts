// System accounts the service runs its children as when it is started as root: PostgreSQL
// refuses to run as root (@svc/db), and Chromium and the service's other sandboxed children run
// as an account that owns nothing of the service (@svc/sandbox). No dependencies: the database
// layer and the sandbox both use it, and neither depends on the other.
import { execFileSync } from 'node:child_process';

export interface SystemAccount {
  name: string;
  uid: number;
  gid: number;
}

/** The account and its group of the same name, made as system entries (no home, no login) if missing. */
export function ensureSystemAccount(name: string): SystemAccount {
  const found = lookUp(name);
  if (found) return found;
  // a concurrent start may create them between the look-up and here; a second add then fails
  // with "already exists", and the look-up after it is what counts
  tryRun('groupadd', ['--system', name]);
  tryRun('useradd', ['--system', '--gid', name, '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name]);
  const made = lookUp(name);
  if (!made) throw new Error(`could not create the system account ${name}`);
  return made;
}

function lookUp(name: string): SystemAccount | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { name, uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

function tryRun(command: string, args: string[]) {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    // reported by the look-up that follows
  }
}
