import {
  cancelTemplateBuildMessageOperation,
  createTemplateBuildMessageOperation,
  createTemplateBuildOperation,
  getTemplateBuildDraftOperation,
  getTemplateBuildMessageDraftOperation,
  getTemplateBuildOperation,
  listTemplateBuildMessagesOperation,
  publishTemplateBuildOperation,
} from '@svc/contracts';
import {
  cancelBuildMessage,
  createBuildMessage,
  createTemplateBuild,
  getBuildDraft,
  getMessageDraft,
  getTemplateBuild,
  listBuildMessages,
  publishTemplateBuild,
} from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { noStoreHeaders, templateBuildBody, templateMessageBody } from '../views/template-builds.ts';

export const templateBuildHandlers = {
  createTemplateBuild: handle(createTemplateBuildOperation, async ({ ctx, principal, body, idempotencyKey }) => {
    const { build, replayed } = await createTemplateBuild(ctx, { principal, request: body, idempotencyKey });
    return { status: replayed ? 200 : 202, body: templateBuildBody(build) };
  }),

  getTemplateBuild: handle(getTemplateBuildOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateBuildBody(await getTemplateBuild(ctx, { accountId: principal.accountId, buildId: params.build_id })),
  })),

  listTemplateBuildMessages: handle(listTemplateBuildMessagesOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: (await listBuildMessages(ctx, { accountId: principal.accountId, buildId: params.build_id })).map(templateMessageBody),
  })),

  createTemplateBuildMessage: handle(createTemplateBuildMessageOperation, async ({ ctx, principal, params, body, idempotencyKey }) => {
    const { message, replayed } = await createBuildMessage(ctx, { principal, buildId: params.build_id, request: body, idempotencyKey });
    return { status: replayed ? 200 : 202, body: templateMessageBody(message) };
  }),

  getTemplateBuildDraft: handle(getTemplateBuildDraftOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await getBuildDraft(ctx, { accountId: principal.accountId, buildId: params.build_id }),
    headers: noStoreHeaders,
  })),

  getTemplateBuildMessageDraft: handle(getTemplateBuildMessageDraftOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: await getMessageDraft(ctx, { accountId: principal.accountId, buildId: params.build_id, messageId: params.message_id }),
    headers: noStoreHeaders,
  })),

  cancelTemplateBuildMessage: handle(cancelTemplateBuildMessageOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateMessageBody(await cancelBuildMessage(ctx, { accountId: principal.accountId, buildId: params.build_id, messageId: params.message_id })),
  })),

  publishTemplateBuild: handle(publishTemplateBuildOperation, async ({ ctx, principal, params }) => {
    const publication = await publishTemplateBuild(ctx, { accountId: principal.accountId, buildId: params.build_id });
    return { status: publication.created ? 201 : 200, body: { template_id: publication.templateId, version: publication.version } };
  }),
} satisfies Partial<OperationHandlers>;
