// Operator-side database tools: server resolution, migrations, and whether they are all applied (readiness probes).
export { embeddedDatabaseUrl, ensureDatabase, resolveDatabase, withDatabase, type DatabaseHandle } from './database.ts';
export { migrate, migrationsDir, pendingMigrations } from './migrate.ts';
