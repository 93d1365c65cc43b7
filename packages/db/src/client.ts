import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from './generated/prisma/client.ts';

export type Db = PrismaClient;
/** A transaction client: everything a Db has except starting and ending connections. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
/** Either a Db or a transaction: core functions that do not open their own transaction take this. */
export type DbOrTx = Db | Tx;

export interface CreateDbOptions {
  url: string;
  /** Connections in the pool; the machine has two cores, so a small pool keeps Postgres fast. */
  poolSize?: number;
}

export function createDb({ url, poolSize = 10 }: CreateDbOptions): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // a connection that breaks while idle (the server restarted) leaves the pool; the next statement gets a new one
  pool.on('error', () => {});
  // the adapter's own typings name a newer @types/pg; the pool is the same driver's
  const adapter = new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], { statementNameGenerator: statementNames('svc_') });
  const db = new PrismaClient({ adapter });
  direct.set(db, { pool, name: statementNames('svc_direct_') });
  // the pool is this function's: it ends with the client, whether or not Prisma ever used it
  const disconnect = db.$disconnect.bind(db);
  db.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  return db;
}

/** The pool under each Db, for the statements of the render path that skip Prisma's query machinery. */
const direct = new WeakMap<object, Direct>();

interface Direct {
  pool: pg.Pool;
  name: (query: { sql: string }) => string;
}

/** A statement as the driver takes it: named once it runs often, its values as parameters. */
const driverQuery = (own: Direct, sql: Prisma.Sql): pg.QueryConfig => ({ name: own.name({ sql: sql.text }) || undefined, text: sql.text, values: sql.values as unknown[] });

/**
 * Runs one SQL statement (a Prisma.sql fragment) and answers its rows as PostgreSQL's driver
 * reads them: on the Db's own pool, straight through node-postgres, or through `$queryRaw` when
 * given a transaction. For the statements every render runs (authentication, admission,
 * claim, finish): Prisma's query machinery costs more CPU than the round trip itself (on the
 * benchmark's machine, 0.24 ms a statement through `$queryRaw` against 0.13 through the driver,
 * and 0.68 against 0.15 for a row read with the model's findUnique). The driver's own types
 * apply: int4 and float8 as numbers, int8 and numeric as strings, timestamptz as Date, json
 * parsed; statements cast what they return accordingly.
 */
export async function queryRows<T>(db: DbOrTx, sql: Prisma.Sql): Promise<T[]> {
  const own = direct.get(db);
  if (!own) return db.$queryRaw<T[]>(sql);
  const result = await own.pool.query(driverQuery(own, sql));
  return result.rows as T[];
}

/** Runs one statement of a transaction and answers its rows, whichever client runs it. */
export type RunStatement = <R>(sql: Prisma.Sql) => Promise<R[]>;

/**
 * Runs `work` in one transaction on a connection of the Db's pool, straight through the
 * driver: BEGIN, the statements `work` runs with `query`, COMMIT (ROLLBACK when it throws).
 * Prisma's interactive transaction costs some 0.8 ms of CPU for BEGIN, one statement and
 * COMMIT on the benchmark's machine; this, 0.23. `first`, a statement whose values are all
 * strings (a lock), goes with BEGIN in one round trip, its values as quoted literals. Only
 * for work made of SQL statements (no model calls); a Db without a pool of its own runs it in
 * `$transaction`.
 */
export async function inTransaction<T>(db: Db, work: (query: RunStatement) => Promise<T>, first?: Prisma.Sql): Promise<T> {
  const own = direct.get(db);
  if (!own) {
    return db.$transaction(async (tx) => {
      if (first) await tx.$queryRaw(first);
      return work(<R>(sql: Prisma.Sql) => tx.$queryRaw<R[]>(sql));
    });
  }
  const client = await own.pool.connect();
  let broken: unknown;
  // a connection cut while checked out (the server restarted) fails the statement in flight or the
  // next one; its 'error' event is that same failure, kept here so it is not an uncaught exception
  const cut = (error: Error) => (broken = error);
  client.on('error', cut);
  try {
    await client.query(first ? `BEGIN; ${inlined(first, (text) => client.escapeLiteral(text))}` : 'BEGIN');
    const result = await work(async <R>(sql: Prisma.Sql) => (await client.query(driverQuery(own, sql))).rows as R[]);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback));
    throw error;
  } finally {
    // a connection that was cut or whose rollback failed is in no known state: it leaves the pool
    client.off('error', cut);
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/** The statement's text with its string values as quoted literals, for the simple protocol (several statements, no parameters). */
function inlined(sql: Prisma.Sql, literal: (text: string) => string): string {
  return sql.text.replace(/\$(\d+)/g, (_, index: string) => {
    const value = sql.values[Number(index) - 1];
    if (typeof value !== 'string') throw new Error('only string values are inlined');
    return literal(value);
  });
}
/** A statement text seen this often is prepared under a name of its own. */
const PREPARE_AFTER = 3;
/** Statement texts prepared in all (per connection at most as many): the hot path's are a few dozen. */
const PREPARED_LIMIT = 256;
/** Distinct texts counted before the count starts over (texts with varying lists of values are many). */
const COUNTED_LIMIT = 4096;

/**
 * Names for the statements this process runs often, so that each connection parses a
 * statement once and PostgreSQL may keep its plan, instead of parsing and planning it on every
 * execution. Rare statements stay unnamed, and the names are bounded: a statement's text
 * keeps its name for the life of the process, as a connection's prepared statement of that
 * name must always have the same text.
 */
function statementNames(prefix: string): (query: { sql: string }) => string {
  const seen = new Map<string, number>();
  const names = new Map<string, string>();
  return ({ sql }) => {
    const name = names.get(sql);
    if (name) return name;
    const count = (seen.get(sql) ?? 0) + 1;
    if (count < PREPARE_AFTER || names.size >= PREPARED_LIMIT) {
      if (seen.size >= COUNTED_LIMIT) seen.clear();
      seen.set(sql, count);
      // unnamed: pg parses it for this execution only
      return '';
    }
    seen.delete(sql);
    const next = `${prefix}${names.size + 1}`;
    names.set(sql, next);
    return next;
  };
}
