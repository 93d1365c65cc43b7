// A directory a sandboxed program may write its output to, and the safe way back out of it.
// The program owns the directory while it runs, so whatever it leaves there is read as
// hostile: a symbolic link it planted to a file of the service's must never be followed by
// the service, which (as root, or as the service's user) could read it.
import { constants } from 'node:fs';
import { chown, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxLauncher } from './sandbox-launcher.ts';

/** Runs `body` with a fresh 0700 directory owned by the sandbox's account, removed afterwards. */
export async function withSandboxDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const { account } = sandboxLauncher();
  const dir = await mkdtemp(join(tmpdir(), 'svc-sandbox-'));
  try {
    if (account) await chown(dir, account.uid, account.gid);
    return await body(dir);
  } finally {
    // rm removes links, never what they point to
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Puts input for the sandboxed program in its directory, before it starts: a new 0600 file
 * owned by the sandbox's account (a pipe on standard input would not do for a program that
 * opens its input by path: /dev/stdin of a pipe the service made is the service's, 0600).
 */
export async function writeSandboxFile(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const { account } = sandboxLauncher();
  const path = join(dir, name);
  await writeFile(path, bytes, { mode: 0o600, flag: 'wx' });
  if (account) await chown(path, account.uid, account.gid);
  return path;
}

/** A regular file the sandbox wrote, at most maxBytes: never through a link, never a FIFO that would hang the read. */
export async function readSandboxFile(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > maxBytes) throw new Error(`${path} is larger than ${maxBytes} bytes`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
