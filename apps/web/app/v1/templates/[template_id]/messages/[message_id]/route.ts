import { cancelTemplateChatMessageOperation, getTemplateChatMessageOperation } from '@svc/contracts';
import { cancelChatMessage, getChatMessage } from '@svc/core';
import { handle } from '../../../../../../src/http/handle.ts';
import { templateChatMessageBody } from '../../../../../../src/http/views/template-builds.ts';

export const GET = handle(getTemplateChatMessageOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateChatMessageBody(await getChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id }), ctx.clock()),
}));

export const DELETE = handle(cancelTemplateChatMessageOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateChatMessageBody(await cancelChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id }), ctx.clock()),
}));
