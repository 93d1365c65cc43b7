// The data directory holds every tenant's files (and, as another user than root, the database
// cluster). Only the service's own user may enter it: Chromium runs as another account (as
// root) or reads through its sandbox, and neither may find a tenant's file by its path.
import { chmod, lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Creates the data directory and its files/ folder if missing, and makes both 0700. */
export async function sealDataDir(dataDir: string): Promise<void> {
  await mkdir(join(dataDir, 'files'), { recursive: true, mode: 0o700 });
  // As root, a cluster kept in place in DATA_DIR/pg (one made where the postgres user could
  // reach it) is entered by that user: the directory then lets others pass but not list, and
  // files/ stays closed to them either way.
  const pg = await lstat(join(dataDir, 'pg')).catch(() => null);
  const inPlaceCluster = process.getuid?.() === 0 && pg?.isDirectory() === true;
  await chmod(dataDir, inPlaceCluster ? 0o711 : 0o700);
  await chmod(join(dataDir, 'files'), 0o700);
}
