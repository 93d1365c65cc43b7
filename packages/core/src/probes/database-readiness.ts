import type { Db } from '@svc/db';
import { pendingMigrations } from '@svc/db/admin';

/**
 * The database's part of readiness, in one query: reachable, and every migration file recorded
 * applied (a process newer than its database's schema must not take traffic).
 */
export async function databaseReadiness(db: Db): Promise<{ database: boolean; migrations: boolean }> {
  try {
    return { database: true, migrations: (await pendingMigrations(db)).length === 0 };
  } catch {
    return { database: false, migrations: false };
  }
}
