import { getTemplateChatDraftOperation } from '@svc/contracts';
import { getChatDraft } from '@svc/core';
import { handle } from '../../../../../../../src/http/handle.ts';
import { noStoreHeaders } from '../../../../../../../src/http/views/template-builds.ts';

export const GET = handle(getTemplateChatDraftOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await getChatDraft(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id }),
  headers: noStoreHeaders,
}));
