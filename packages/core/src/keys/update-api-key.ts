import { type ApiKeyUpdate, idPattern, keyIdPrefix } from '@svc/contracts';
import type { ServiceContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import type { ApiKeyRecord } from '../shared/records.ts';

export interface UpdateApiKeyOptions {
  accountId: string;
  keyId: string;
  changes: ApiKeyUpdate;
}

/**
 * Renames a key or changes its monthly overage cap. Omitted fields keep their values:
 * a body without monthly_overage_cap keeps the cap; null clears it.
 */
export async function updateApiKey(ctx: ServiceContext, { accountId, keyId, changes }: UpdateApiKeyOptions): Promise<ApiKeyRecord> {
  if (!idPattern(keyIdPrefix).test(keyId)) throw notFound();
  const data = {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.monthly_overage_cap !== undefined ? { monthlyOverageCap: changes.monthly_overage_cap } : {}),
  };
  const updated = await ctx.db.apiKey.updateMany({ where: { id: keyId, accountId }, data });
  if (updated.count === 0) throw notFound();
  return ctx.db.apiKey.findUniqueOrThrow({ where: { id: keyId } });
}
