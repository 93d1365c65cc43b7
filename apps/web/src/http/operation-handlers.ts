// The /v1 table: each operation of the contract's catalog and the handler that answers it,
// keyed by operationId, from one file per area of the catalog (handlers/). The compiler
// checks it: an operation without a handler here, or in an area's file a key that names no
// operation or a handler built for another operation than its key, is a type error.
import type { Operation } from '@svc/contracts';
import type { OperationHandler, OperationHandlers } from './handle.ts';
import { accountHandlers } from './handlers/account.ts';
import { brandKitHandlers } from './handlers/brand-kits.ts';
import { groupHandlers } from './handlers/groups.ts';
import { imageAssetHandlers } from './handlers/image-assets.ts';
import { keyHandlers } from './handlers/keys.ts';
import { publicHandlers } from './handlers/public.ts';
import { renderHandlers } from './handlers/renders.ts';
import { templateBuildHandlers } from './handlers/template-builds.ts';
import { templateChatHandlers } from './handlers/template-chat.ts';
import { templateHandlers } from './handlers/templates.ts';
import { testimonialHandlers } from './handlers/testimonials.ts';
import { webhookHandlers } from './handlers/webhooks.ts';

export const operationHandlers = {
  ...publicHandlers,
  ...keyHandlers,
  ...renderHandlers,
  ...groupHandlers,
  ...templateHandlers,
  ...templateBuildHandlers,
  ...templateChatHandlers,
  ...brandKitHandlers,
  ...webhookHandlers,
  ...imageAssetHandlers,
  ...accountHandlers,
  ...testimonialHandlers,
} satisfies OperationHandlers;

const byId: Readonly<Record<string, OperationHandler | undefined>> = operationHandlers;

/** The handler of an operation the route table matched. */
export function handlerOf(operation: Operation): OperationHandler {
  const handler = byId[operation.operationId];
  if (!handler) throw new Error(`no handler for ${operation.operationId}`);
  return handler;
}
