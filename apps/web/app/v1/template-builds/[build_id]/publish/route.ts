import { publishTemplateBuildOperation } from '@svc/contracts';
import { publishTemplateBuild } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(publishTemplateBuildOperation, async ({ ctx, principal, params }) => {
  const publication = await publishTemplateBuild(ctx, { accountId: principal.accountId, buildId: params.build_id });
  return { status: publication.created ? 201 : 200, body: { template_id: publication.templateId, version: publication.version } };
});
