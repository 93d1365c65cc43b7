import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

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
  const adapter = new PrismaPg({ connectionString: url, max: poolSize }, { statementNameGenerator: statementNames() });
  return new PrismaClient({ adapter });
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
function statementNames(): (query: { sql: string }) => string {
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
    const next = `svc_${names.size + 1}`;
    names.set(sql, next);
    return next;
  };
}
