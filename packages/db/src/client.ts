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
  const adapter = new PrismaPg({ connectionString: url, max: poolSize });
  return new PrismaClient({ adapter });
}
