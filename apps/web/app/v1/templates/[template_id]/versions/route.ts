import { createTemplateVersion, listTemplateVersions } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(createTemplateVersion, async ({ ctx, caller, params, body }) => ({
  status: 201,
  body: await core.createTemplateVersion(ctx, { accountId: caller.accountId, templateId: params.template_id ?? '', request: body }),
}));

export const GET = handle(listTemplateVersions, async ({ ctx, caller, params, query }) => ({
  status: 200,
  body: await core.listTemplateVersions(ctx, { accountId: caller.accountId, templateId: params.template_id ?? '', ...query }),
}));
