import { applyImageProposalOperation } from '@svc/contracts';
import { applyImageProposal } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { imageProposalBody } from '../../../../../src/http/views/template-builds.ts';

export const POST = handle(applyImageProposalOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: imageProposalBody(await applyImageProposal(ctx, { accountId: principal.accountId, messageId: params.message_id })),
}));
