import {
  applyImageProposalOperation,
  applyTemplateChatMessageOperation,
  cancelTemplateChatMessageOperation,
  createTemplateChatMessageOperation,
  discardTemplateChatMessageOperation,
  getChatImageProposalOperation,
  getImageProposalOperation,
  getTemplateChatDraftOperation,
  getTemplateChatMessageOperation,
  rejectChatImageProposalOperation,
} from '@svc/contracts';
import {
  applyChatMessage,
  applyImageProposal,
  cancelChatMessage,
  discardChatMessage,
  getChatDraft,
  getChatMessage,
  getImageProposal,
  rejectImageProposal,
  sendChatMessage,
} from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { imageProposalBody, noStoreHeaders, templateChatMessageBody } from '../views/template-builds.ts';
import { templateVersionBody } from '../views/templates.ts';

export const templateChatHandlers = {
  createTemplateChatMessage: handle(createTemplateChatMessageOperation, async ({ ctx, principal, params, body, idempotencyKey }) => {
    const { record, replayed } = await sendChatMessage(ctx, { principal, templateId: params.template_id, request: body, idempotencyKey });
    return { status: replayed ? 200 : 202, body: templateChatMessageBody(record, ctx.clock()) };
  }),

  getTemplateChatMessage: handle(getTemplateChatMessageOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateChatMessageBody(await getChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id }), ctx.clock()),
  })),

  cancelTemplateChatMessage: handle(cancelTemplateChatMessageOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateChatMessageBody(await cancelChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id }), ctx.clock()),
  })),

  getTemplateChatDraft: handle(getTemplateChatDraftOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await getChatDraft(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id }),
    headers: noStoreHeaders,
  })),

  applyTemplateChatMessage: handle(applyTemplateChatMessageOperation, async ({ ctx, principal, params, body }) => {
    const outcome = await applyChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id, save: body.save ?? true });
    if (outcome.kind === 'recorded') return { status: 204 };
    return { status: outcome.kind === 'saved' ? 201 : 200, body: templateVersionBody(outcome.version) };
  }),

  discardTemplateChatMessage: handle(discardTemplateChatMessageOperation, async ({ ctx, principal, params }) => {
    await discardChatMessage(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id });
    return { status: 204 };
  }),

  getChatImageProposal: handle(getChatImageProposalOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: imageProposalBody(await getImageProposal(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id })),
  })),

  rejectChatImageProposal: handle(rejectChatImageProposalOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: imageProposalBody(await rejectImageProposal(ctx, { accountId: principal.accountId, templateId: params.template_id, messageId: params.message_id })),
  })),

  getImageProposal: handle(getImageProposalOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: imageProposalBody(await getImageProposal(ctx, { accountId: principal.accountId, messageId: params.message_id })),
  })),

  applyImageProposal: handle(applyImageProposalOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: imageProposalBody(await applyImageProposal(ctx, { accountId: principal.accountId, messageId: params.message_id })),
  })),
} satisfies Partial<OperationHandlers>;
