import { getTemplateBuildOperation } from '@svc/contracts';
import { getTemplateBuild } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { templateBuildBody } from '../../../../src/http/views/template-builds.ts';

export const GET = handle(getTemplateBuildOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateBuildBody(await getTemplateBuild(ctx, { accountId: principal.accountId, buildId: params.build_id })),
}));
