import { keyIdPrefix, maxActiveKeys } from '@svc/contracts';
import type { Tx } from '@svc/db';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { ApiKeyRecord } from '../shared/records.ts';
import { newApiKeySecret } from '../auth/secret.ts';

export interface CreateApiKeyOptions {
  accountId: string;
  name: string;
}

export interface CreatedApiKey {
  key: ApiKeyRecord;
  /** The secret, available only now: the service keeps just its verifier. */
  secret: string;
}

/** Creates a key and returns its secret, the only time the secret is ever available. */
export async function createApiKey(ctx: ServiceContext, options: CreateApiKeyOptions): Promise<CreatedApiKey> {
  return ctx.db.$transaction((tx) => insertApiKey(tx, options, ctx.clock()));
}

/** The insert itself, for callers that already hold a transaction (account creation). */
export async function insertApiKey(tx: Tx, { accountId, name }: CreateApiKeyOptions, now: Date): Promise<CreatedApiKey> {
  // the account row lock serialises concurrent creates, so the active-key count cannot be overrun
  await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
  const active = await tx.apiKey.count({ where: { accountId, status: 'active' } });
  if (active >= maxActiveKeys) throw new DomainError('key_limit_reached');
  const { secret, verifier, displayPrefix } = newApiKeySecret();
  const key = await tx.apiKey.create({
    data: { id: newId(keyIdPrefix), accountId, name, verifier, displayPrefix, createdAt: now },
  });
  return { key, secret };
}
