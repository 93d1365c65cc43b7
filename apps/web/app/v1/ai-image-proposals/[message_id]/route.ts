import { getImageProposalOperation } from '@svc/contracts';
import { getImageProposal } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { imageProposalBody } from '../../../../src/http/views/template-builds.ts';

export const GET = handle(getImageProposalOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: imageProposalBody(await getImageProposal(ctx, { accountId: principal.accountId, messageId: params.message_id })),
}));
