import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import type { ObjectStorage, StoredObject } from '../ports/object-storage.ts';
import { checkStorageKey } from './storage-key.ts';

/**
 * Files on the local disk under one root (SVC_DATA_DIR/files): the default driver, for one
 * machine or a shared mount. Writes are atomic (a temporary file, then rename).
 */
export class LocalStorage implements ObjectStorage {
  readonly #root: string;
  /** Folders this process made (or found): a file stored into one needs no mkdir first. */
  readonly #folders = new Set<string>();

  constructor(root: string) {
    this.#root = resolve(root);
  }

  #path(key: string): string {
    const path = normalize(join(this.#root, checkStorageKey(key)));
    if (!path.startsWith(this.#root + sep)) throw new Error('storage key escapes the store');
    return path;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.#path(key);
    const directory = dirname(path);
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    // a folder this process made once is not made again for every file (one per account)
    if (!this.#folders.has(directory)) await this.#makeFolder(directory);
    try {
      await writeFile(temporary, bytes, { mode: 0o600 });
    } catch (error) {
      // the folder went away since (removed by hand): make it again, once
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await this.#makeFolder(directory);
      await writeFile(temporary, bytes, { mode: 0o600 });
    }
    await rename(temporary, path);
  }

  async #makeFolder(directory: string): Promise<void> {
    // the service's user only: the data directory is sealed (seal-data-dir.ts), its files too
    await mkdir(directory, { recursive: true, mode: 0o700 });
    this.#folders.add(directory);
  }

  async open(key: string): Promise<StoredObject | null> {
    const path = this.#path(key);
    const found = await stat(path).catch(() => null);
    if (!found?.isFile()) return null;
    return { stream: createReadStream(path), byteSize: found.size };
  }

  async remove(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return (await stat(this.#path(key)).catch(() => null))?.isFile() ?? false;
  }
}
