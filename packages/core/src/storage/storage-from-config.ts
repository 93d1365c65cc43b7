import type { ObjectStorage } from '../ports/object-storage.ts';
import type { ServiceConfig } from '../shared/config.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';

/** The storage driver the settings name: an S3-compatible store when a bucket is set, else the local disk. */
export function storageFromConfig(config: ServiceConfig): ObjectStorage {
  if (config.s3) return new S3Storage(config.s3);
  return new LocalStorage(config.filesDir);
}
