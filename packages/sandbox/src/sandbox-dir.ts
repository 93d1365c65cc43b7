// A directory a sandboxed program may write its output to, and the safe way back out of it.
// The program owns the directory while it runs, so whatever it leaves there is read as
// hostile: a symbolic link it planted to a file of the service's must never be followed by
// the service, which (as root, or as the service's user) could read it.
import { constants } from 'node:fs';
import { chown, mkdtemp, open, rm } from 'node:fs/promises';
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
