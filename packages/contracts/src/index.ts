import { createApiKey, listApiKeys, revokeApiKey, updateApiKey } from './keys.ts';
import { getOpenApi } from './openapi.ts';
import { renderOperationList } from './render-operations.ts';
import type { Operation } from './operation.ts';

export * from './common.ts';
export * from './envelope.ts';
export * from './error-body.ts';
export * from './errors.ts';
export * from './field-details.ts';
export * from './keys.ts';
export * from './openapi.ts';
export * from './operation.ts';
export * from './registry.ts';
export * from './render-operations.ts';
export * from './renders.ts';
export * from './routes.ts';

/** Every operation the service serves; routing, validation and the published contract all read it. */
export const operations: readonly Operation[] = [
  getOpenApi,
  createApiKey,
  listApiKeys,
  updateApiKey,
  revokeApiKey,
  ...renderOperationList,
];
