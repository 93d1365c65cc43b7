import { applyTemplateChatMessageOperation } from '@svc/contracts';
import { applyChatMessage } from '@svc/core';
import { handle } from '../../../../../../../src/http/handle.ts';
import { templateVersionBody } from '../../../../../../../src/http/views/templates.ts';

export const POST = handle(applyTemplateChatMessageOperation, async ({ ctx, principal, params, body }) => {
  const outcome = await applyChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id, save: body.save ?? true });
  if (outcome.kind === 'recorded') return { status: 204 };
  return { status: outcome.kind === 'saved' ? 201 : 200, body: templateVersionBody(outcome.version) };
});
