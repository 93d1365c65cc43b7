import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

/**
 * Rendered files on the local disk under one root. Keys are relative paths made by the
 * service (account/job-attempt.ext), never by callers; writes are atomic (temp + rename).
 */
export class FileStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    const path = normalize(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error('storage key escapes the store');
    return path;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  }

  /** Removes a file; a file that is already gone counts as removed. */
  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  read(key: string): ReadStream {
    return createReadStream(this.path(key));
  }
}

const stores = new Map<string, FileStore>();
export function fileStore(root: string): FileStore {
  let store = stores.get(root);
  if (!store) stores.set(root, (store = new FileStore(root)));
  return store;
}
