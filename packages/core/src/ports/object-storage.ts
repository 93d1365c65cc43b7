import type { Readable } from 'node:stream';

/**
 * Where the service keeps files: rendered files today, uploaded assets and ZIP archives
 * later. Keys are relative paths the service makes (account/job-attempt.ext), never a
 * caller's text. Writes are whole and atomic: a reader sees the old object, the new one,
 * or none, never part of one.
 */
export interface ObjectStorage {
  put(key: string, bytes: Uint8Array, options?: { contentType?: string }): Promise<void>;
  /** The object's bytes as a stream, or null when there is no such object. */
  open(key: string): Promise<StoredObject | null>;
  /** Removes an object; one that is already gone counts as removed. */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export interface StoredObject {
  stream: Readable;
  byteSize: number;
}
