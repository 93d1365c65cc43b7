import type { ObjectStorage } from '../ports/object-storage.ts';
import type { ServiceConfig } from '../shared/config.ts';
import { LocalStorage } from './local-storage.ts';

/** The storage driver the settings name. */
export function storageFromConfig(config: ServiceConfig): ObjectStorage {
  return new LocalStorage(config.filesDir);
}
