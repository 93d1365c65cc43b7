import type { ApiKey, ApiKeyWithSecret } from '@svc/contracts';
import type { ApiKeyRecord, CreatedApiKey } from '@svc/core';

/** The public shape of a stored key (the contract's API key resource). */
export function apiKeyBody(key: ApiKeyRecord): ApiKey {
  return {
    id: key.id,
    name: key.name,
    display_prefix: key.displayPrefix,
    status: key.status,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    monthly_overage_cap: key.monthlyOverageCap,
  };
}

/** A new key with its secret, the only answer that ever carries it. */
export function newApiKeyBody({ key, secret }: CreatedApiKey): ApiKeyWithSecret {
  return {
    id: key.id,
    name: key.name,
    secret,
    display_prefix: key.displayPrefix,
    status: 'active',
    created_at: key.createdAt.toISOString(),
  };
}
