import { z } from 'zod';
import { Cursor, idSchema, PrintableName, StrictLimit, Timestamp } from './common.ts';
import { defineOperation, jsonBodyErrors } from './operation.ts';
import { named } from './registry.ts';

export const keyIdPrefix = 'key_';
export const KeyId = idSchema(keyIdPrefix);
export const apiKeySecretPattern = /^svc_sk_v1_[0-9a-f]{64}$/;
/** Key create and update bodies are at most 16 KiB (the contract's limits). */
export const keyBodyLimit = 16 * 1024;
export const maxActiveKeys = 10;

const OverageCap = z.int().min(1).max(2_147_483_647);

export const ApiKey = named(
  'ApiKey',
  z.strictObject({
    id: KeyId,
    name: z.string(),
    display_prefix: z.string(),
    status: z.enum(['active', 'revoked']),
    created_at: Timestamp,
    revoked_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable().meta({
      description: 'When the key last authenticated a request, exact to the minute (written at most once a minute); null if never used.',
    }),
    monthly_overage_cap: OverageCap.nullable().meta({
      description: 'Overage credits this key may use per calendar month (UTC); null sets no cap.',
    }),
  }),
);
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyWithSecret = named(
  'ApiKeyWithSecret',
  z.strictObject({
    id: KeyId,
    name: z.string(),
    secret: z.string().regex(apiKeySecretPattern),
    display_prefix: z.string(),
    status: z.literal('active'),
    created_at: Timestamp,
  }),
);
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;

export const NewApiKey = named('NewApiKey', z.strictObject({ name: PrintableName }));
export type NewApiKey = z.infer<typeof NewApiKey>;

export const ApiKeyUpdate = named(
  'ApiKeyUpdate',
  z.strictObject({
    name: PrintableName.optional(),
    monthly_overage_cap: OverageCap.nullable()
      .optional()
      .meta({ description: 'A positive integer sets the cap; null clears it; omitting the field keeps the current cap.' }),
  }),
);
export type ApiKeyUpdate = z.infer<typeof ApiKeyUpdate>;

export const ApiKeyList = named(
  'ApiKeyList',
  z.strictObject({ data: z.array(ApiKey).max(100), next_cursor: z.string().max(128).nullable() }),
);
export type ApiKeyList = z.infer<typeof ApiKeyList>;

const KeyPath = z.strictObject({ key_id: KeyId });

export const createApiKeyOperation = defineOperation({
  operationId: 'createApiKey',
  method: 'post',
  path: '/v1/keys',
  tag: 'API keys',
  summary: 'Create an API key',
  description: 'The secret is returned only in this response.',
  auth: 'bearer',
  body: { schema: NewApiKey, maxBytes: keyBodyLimit, example: { name: 'Production' } },
  responses: { 201: { description: 'The new key with its secret', schema: ApiKeyWithSecret } },
  errors: [...jsonBodyErrors, 'key_limit_reached'],
});

export const listApiKeysOperation = defineOperation({
  operationId: 'listApiKeys',
  method: 'get',
  path: '/v1/keys',
  tag: 'API keys',
  summary: 'List API keys, most recently created first',
  description: 'Revoked keys stay in the list.',
  auth: 'bearer',
  query: z.strictObject({ limit: StrictLimit, cursor: Cursor.optional() }),
  responses: { 200: { description: 'A page of keys', schema: ApiKeyList } },
  errors: ['invalid_request', 'invalid_cursor'],
});

export const updateApiKeyOperation = defineOperation({
  operationId: 'updateApiKey',
  method: 'patch',
  path: '/v1/keys/{key_id}',
  tag: 'API keys',
  summary: 'Rename a key or change its monthly overage cap',
  description:
    'Omitted fields keep their values: a body without monthly_overage_cap keeps the current cap, null clears it. ' +
    'The cap bounds only overage; work covered by prepaid credits is never refused by it.',
  auth: 'bearer',
  params: KeyPath,
  body: { schema: ApiKeyUpdate, maxBytes: keyBodyLimit },
  responses: { 200: { description: 'The updated key', schema: ApiKey } },
  errors: [...jsonBodyErrors, 'not_found'],
});

export const revokeApiKeyOperation = defineOperation({
  operationId: 'revokeApiKey',
  method: 'delete',
  path: '/v1/keys/{key_id}',
  tag: 'API keys',
  summary: 'Revoke a key',
  description:
    'Revoking an already revoked key returns the same answer. A revoked key stops spending: its batches are cancelled as by ' +
    'the batch cancel (rows with no job cancelled, queued jobs cancelled with credit released and render.cancelled sent); its ' +
    "carousels' and image packs' members that have not started fail with key_revoked (queued jobs cancelled, credit released, " +
    'render.cancelled sent). Running jobs finish. A retry of such a group admits nothing while its key is revoked.',
  auth: 'bearer',
  params: KeyPath,
  responses: { 200: { description: 'The revoked key', schema: ApiKey } },
  errors: ['not_found'],
});
