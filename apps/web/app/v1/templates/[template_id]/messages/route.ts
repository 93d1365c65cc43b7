import { createTemplateChatMessageOperation } from '@svc/contracts';
import { sendChatMessage } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { templateChatMessageBody } from '../../../../../src/http/views/template-builds.ts';

export const POST = handle(createTemplateChatMessageOperation, async ({ ctx, principal, params, body, request }) => {
  const { record, replayed } = await sendChatMessage(ctx, {
    principal,
    templateId: params.template_id,
    request: body,
    idempotencyKey: request.headers.get('idempotency-key'),
  });
  return { status: replayed ? 200 : 202, body: templateChatMessageBody(record, ctx.clock()) };
});
