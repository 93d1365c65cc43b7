import { getTemplateBuildMessageDraftOperation } from '@svc/contracts';
import { getMessageDraft } from '@svc/core';
import { handle } from '../../../../../../../src/http/handle.ts';
import { noStoreHeaders } from '../../../../../../../src/http/views/template-builds.ts';

export const GET = handle(getTemplateBuildMessageDraftOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await getMessageDraft(ctx, { accountId: principal.accountId, buildId: params.build_id, messageId: params.message_id }),
  headers: noStoreHeaders,
}));
