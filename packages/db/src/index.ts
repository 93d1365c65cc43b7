export { commitWithoutFlush, createDb, type Db, type DbOrTx, queryAfter, queryRows, type RunStatement, type Tx } from './client.ts';
export { Prisma } from './generated/prisma/client.ts';
export type * from './generated/prisma/client.ts';
export * from './generated/prisma/enums.ts';
export { isDatabaseUnavailable, isTransientConflict } from './unavailable.ts';
export { listen, type ListenOptions, type Listener } from './listen.ts';
