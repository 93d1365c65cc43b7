import { createTemplateBuildMessageOperation, listTemplateBuildMessagesOperation } from '@svc/contracts';
import { createBuildMessage, listBuildMessages } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { templateMessageBody } from '../../../../../src/http/views/template-builds.ts';

export const GET = handle(listTemplateBuildMessagesOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: (await listBuildMessages(ctx, { accountId: principal.accountId, buildId: params.build_id })).map(templateMessageBody),
}));

export const POST = handle(createTemplateBuildMessageOperation, async ({ ctx, principal, params, body, request }) => {
  const { message, replayed } = await createBuildMessage(ctx, {
    principal,
    buildId: params.build_id,
    request: body,
    idempotencyKey: request.headers.get('idempotency-key'),
  });
  return { status: replayed ? 200 : 202, body: templateMessageBody(message) };
});
