import { discardTemplateChatMessageOperation } from '@svc/contracts';
import { discardChatMessage } from '@svc/core';
import { handle } from '../../../../../../../src/http/handle.ts';

export const POST = handle(discardTemplateChatMessageOperation, async ({ ctx, principal, params }) => {
  await discardChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id });
  return { status: 204 };
});
