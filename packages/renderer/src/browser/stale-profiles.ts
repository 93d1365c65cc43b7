// Profile directories of browsers whose owner died without cleaning up (a SIGKILLed worker,
// a crashed host process) would pile up in the temp directory. Each start sweeps the ones that
// provably belong to nobody.
import { lstat, readdir, readlink, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROFILE_PREFIX = 'svc-chromium-';

/** Longer than any launch takes: a younger directory without a lock may be starting up. */
const UNLOCKED_GRACE_MS = 5 * 60_000;

export async function sweepStaleProfiles(): Promise<void> {
  const root = tmpdir();
  const names = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(PROFILE_PREFIX))
      .map(async (name) => {
        const directory = join(root, name);
        if (await isStale(directory)) await rm(directory, { recursive: true, force: true }).catch(() => undefined);
      }),
  );
}

async function isStale(directory: string): Promise<boolean> {
  // Chromium holds <profile>/SingletonLock, a symlink to "<host>-<pid>", while it runs
  const lock = await readlink(join(directory, 'SingletonLock')).catch(() => null);
  if (lock === null) {
    const stats = await lstat(directory).catch(() => null);
    return stats !== null && Date.now() - stats.mtimeMs > UNLOCKED_GRACE_MS;
  }
  const separator = lock.lastIndexOf('-');
  const host = lock.slice(0, separator);
  const pid = Number(lock.slice(separator + 1));
  if (host !== hostname() || !Number.isInteger(pid)) return false;
  return !isRunning(pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
