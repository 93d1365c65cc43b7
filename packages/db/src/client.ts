import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client.ts';

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

/**
 * Interactive transactions wait up to 10 s for a pooled connection and may run 15 s: on a busy
 * machine (every connection held, the CPU shared) they start and finish late rather than fail
 * (Prisma's own bounds, 2 s and 5 s, turned load into errors). A transaction still cannot hold
 * its locks without bound.
 */
const transactionOptions = { maxWait: 10_000, timeout: 15_000 };

export function createDb({ url, poolSize = 10 }: CreateDbOptions): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // a connection that breaks while idle (the server restarted) leaves the pool; the next statement gets a new one
  pool.on('error', () => {});
  // the adapter's own typings name a newer @types/pg; the pool is the same driver's
  const adapter = new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], { statementNameGenerator: statementNames('svc_') });
  const db = new PrismaClient({ adapter, transactionOptions });
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
 * Runs `first`, then `sql`, as one transaction in one round trip, and answers `sql`'s rows:
 * PostgreSQL's extended protocol with one Sync after both, which runs them as one implicit
 * transaction, committed at the Sync or rolled back when either fails. Each statement reads
 * with a snapshot of its own (READ COMMITTED), so a lock `first` takes is held while `sql`
 * reads what other transactions committed before it. Where BEGIN with the lock, the statement
 * and COMMIT cost three round trips, this costs one. Both statements are named and prepared
 * once per connection as queryRows' statements are; a Db without a pool of its own runs both in
 * `$transaction`.
 */
export async function queryAfter<R>(db: Db, first: Prisma.Sql, sql: Prisma.Sql): Promise<R[]> {
  const own = direct.get(db);
  if (!own) return db.$transaction(async (tx) => (await tx.$queryRaw(first), tx.$queryRaw<R[]>(sql)));
  const client = await own.pool.connect();
  let broken: unknown;
  const cut = (error: Error) => (broken = error);
  client.on('error', cut);
  try {
    return (await client.query(new TwoStatements(driverQuery(own, first), driverQuery(own, sql)) as unknown as pg.QueryConfig)) as unknown as R[];
  } catch (error) {
    // a failure here is rare (the statements' own refusals come as rows): the connection,
    // perhaps cut by the server with this very error, leaves the pool
    broken = error;
    throw error;
  } finally {
    client.off('error', cut);
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/**
 * An expression for a statement's select list that has its transaction commit without waiting
 * for its WAL to reach the disk (synchronous_commit off until the transaction ends), evaluated
 * (as true) wherever the statement answers a row. A crash of the database within a moment of
 * the commit (the WAL writer flushes within a fraction of a second) may undo it, never a later
 * transaction's: a synchronous commit after it flushes it too. For writes a crash may undo
 * harmlessly: a rate-limit token, a claim that recovery hands out again. An expression, not a
 * `SET LOCAL` statement before it: one statement fewer, and no warning (SET LOCAL outside a
 * transaction block warns, though the extended protocol's implicit transaction honours it).
 */
export const commitWithoutFlush: Prisma.Sql = Prisma.sql`set_config('synchronous_commit', 'off', true) IS NOT NULL`;

/** Parts of node-postgres its typings leave out: the result that parses rows, and the value mapper of Bind. */
const driver = pg as unknown as {
  Result: new () => { rows: unknown[]; addFields(fields: unknown[]): void; parseRow(fields: unknown[]): unknown; addRow(row: unknown): void };
  utils: { prepareValue(value: unknown): unknown };
};
const { prepareValue } = driver.utils;

/** What node-postgres' connection offers a query object that writes its own protocol messages. */
interface ProtocolConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: { statement: string; values: unknown[]; valueMapper: typeof prepareValue }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/**
 * The two statements of queryAfter as one query object of node-postgres (its "submittable"
 * interface, as pg-cursor's): the client hands it the connection to write to and then every
 * message of the answer until ReadyForQuery. A named second statement's Parse goes first, so
 * the first ParseComplete the client sees, which it takes as this object's (name and text), is
 * that statement's. Both are recorded as parsed here when their Parse is sent (the client
 * would record only the second, at its ParseComplete): any error discards the connection,
 * and its record with it, as queryAfter releases a connection that failed.
 */
class TwoStatements {
  readonly name: string | undefined;
  readonly text: string;
  readonly #first: pg.QueryConfig;
  readonly #second: pg.QueryConfig;
  readonly #result = new driver.Result();
  #completed = 0;
  #error: Error | undefined;
  readonly #answer: Promise<unknown[]>;
  #settle!: { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void };

  constructor(first: pg.QueryConfig, second: pg.QueryConfig) {
    this.#first = first;
    this.#second = second;
    this.name = second.name;
    this.text = second.text;
    this.#answer = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
  }

  // node-postgres awaits what query() returns for a submittable: its answer
  then<T>(onFulfilled: (rows: unknown[]) => T, onRejected?: (error: unknown) => T): Promise<T> {
    return this.#answer.then(onFulfilled, onRejected);
  }

  submit(connection: ProtocolConnection): null {
    const { name = '', text, values = [] } = this.#second;
    connection.stream.cork?.();
    try {
      // a named second statement is parsed first (see above); an unnamed one after the first
      // statement ran, as each Parse of the unnamed statement replaces the one before
      const parse = connection.parsedStatements[name] === text ? null : { text, name, types: [] };
      if (parse && name) {
        connection.parse(parse);
        connection.parsedStatements[name] = text;
      }
      // the first statement may be the second's text again, and then its name too
      const { name: firstName = '', text: firstText, values: firstValues = [] } = this.#first;
      if (!firstName || connection.parsedStatements[firstName] !== firstText) {
        connection.parse({ text: firstText, name: firstName, types: [] });
        if (firstName) connection.parsedStatements[firstName] = firstText;
      }
      connection.bind({ statement: firstName, values: firstValues, valueMapper: prepareValue });
      connection.execute({ portal: '', rows: 0 });
      if (parse && !name) connection.parse(parse);
      connection.bind({ statement: name, values, valueMapper: prepareValue });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: unknown[] }): void {
    this.#result.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    // the first statement's rows come without a description: only the second's are read
    if (this.#completed === 1 && this.#error === undefined) {
      try {
        this.#result.addRow(this.#result.parseRow(message.fields));
      } catch (error) {
        this.#error = error as Error;
      }
    }
  }

  handleCommandComplete(): void {
    this.#completed += 1;
  }

  handleEmptyQuery(): void {
    this.#completed += 1;
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: ProtocolConnection): void {
    connection.sendCopyFail('no copy here');
  }

  handleCopyData(): void {}

  // an error from the server ends the query at once (the client then waits for ReadyForQuery itself)
  handleError(error: Error): void {
    this.#settle.reject(error);
  }

  handleReadyForQuery(): void {
    if (this.#error) this.#settle.reject(this.#error);
    else this.#settle.resolve(this.#result.rows);
  }
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
