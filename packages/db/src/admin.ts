// Operator-side database tools: server resolution and migrations. Not for request paths.
export { ensureDatabase, resolveDatabase, withDatabase, type DatabaseHandle } from './database.ts';
export { migrate, migrationsDir } from './migrate.ts';
