import type { ApiKey as ApiKeyView } from '@svc/contracts';
import type { ApiKey } from '@svc/db';

/** The public shape of a stored key (spec 2.2). */
export function toApiKeyView(key: ApiKey): ApiKeyView {
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
