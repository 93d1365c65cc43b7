import { cancelTemplateBuildMessageOperation } from '@svc/contracts';
import { cancelBuildMessage } from '@svc/core';
import { handle } from '../../../../../../src/http/handle.ts';
import { templateMessageBody } from '../../../../../../src/http/views/template-builds.ts';

export const DELETE = handle(cancelTemplateBuildMessageOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateMessageBody(await cancelBuildMessage(ctx, { accountId: principal.accountId, buildId: params.build_id, messageId: params.message_id })),
}));
