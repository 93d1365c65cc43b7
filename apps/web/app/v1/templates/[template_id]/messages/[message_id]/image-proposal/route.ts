import { getChatImageProposalOperation, rejectChatImageProposalOperation } from '@svc/contracts';
import { getImageProposal, rejectImageProposal } from '@svc/core';
import { handle } from '../../../../../../../src/http/handle.ts';
import { imageProposalBody } from '../../../../../../../src/http/views/template-builds.ts';

export const GET = handle(getChatImageProposalOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: imageProposalBody(await getImageProposal(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id })),
}));

export const DELETE = handle(rejectChatImageProposalOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: imageProposalBody(await rejectImageProposal(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id })),
}));
