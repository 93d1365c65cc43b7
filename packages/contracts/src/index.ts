import { brandKitOperationList } from './brand-kits-operations.ts';
import { accountOperationList } from './account.ts';
import { createApiKeyOperation, listApiKeysOperation, revokeApiKeyOperation, updateApiKeyOperation } from './keys.ts';
import { imageAssetOperationList } from './image-assets.ts';
import { groupOperationList } from './groups-operations.ts';
import { getOpenApiOperation } from './openapi.ts';
import { getPublicStatsOperation } from './public.ts';
import { renderOperationList } from './render-operations.ts';
import { templateOperationList } from './templates-operations.ts';
import { templateBuildOperationList } from './template-builds-operations.ts';
import { templateChatOperationList } from './template-chat-operations.ts';
import { testimonialOperationList } from './testimonials.ts';
import type { Operation } from './operation.ts';
import { webhookOperationList } from './webhooks.ts';

export * from './brand-kits.ts';
export * from './brand-kits-operations.ts';
export * from './account.ts';
export * from './common.ts';
export * from './envelope.ts';
export * from './error-body.ts';
export * from './errors.ts';
export * from './field-details.ts';
export * from './groups.ts';
export * from './groups-operations.ts';
export * from './image-assets.ts';
export * from './keys.ts';
export * from './openapi.ts';
export * from './operation.ts';
export * from './public.ts';
export * from './registry.ts';
export * from './render-engine.ts';
export * from './render-operations.ts';
export * from './render-report.ts';
export * from './renders.ts';
export * from './routes.ts';
export * from './templates.ts';
export * from './template-builds.ts';
export * from './template-builds-operations.ts';
export * from './template-chat-operations.ts';
export * from './templates-operations.ts';
export * from './testimonials.ts';
export * from './text-integrity.ts';
export * from './webhooks.ts';

const catalog = [
  getOpenApiOperation,
  getPublicStatsOperation,
  createApiKeyOperation,
  listApiKeysOperation,
  updateApiKeyOperation,
  revokeApiKeyOperation,
  ...renderOperationList,
  ...groupOperationList,
  ...templateOperationList,
  ...templateBuildOperationList,
  ...templateChatOperationList,
  ...brandKitOperationList,
  ...webhookOperationList,
  ...imageAssetOperationList,
  ...accountOperationList,
  ...testimonialOperationList,
] as const;

/** Every operation the service serves; routing, validation and the published contract all read it. */
export const operations: readonly Operation[] = catalog;

/** The id of every operation of the catalog: a table keyed by it names each operation exactly once. */
export type OperationId = (typeof catalog)[number]['operationId'];
