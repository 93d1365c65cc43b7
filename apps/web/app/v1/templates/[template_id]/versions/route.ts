import { createTemplateVersion, listTemplateVersions } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';

export const POST = handle(createTemplateVersion, async ({ ctx, principal, params, body }) => ({
  status: 201,
  body: await core.createTemplateVersion(ctx, { accountId: principal.accountId, templateId: params.template_id ?? '', request: body }),
}));

export const GET = handle(listTemplateVersions, async ({ ctx, principal, params, query }) => ({
  status: 200,
  body: await core.listTemplateVersions(ctx, { accountId: principal.accountId, templateId: params.template_id ?? '', ...query }),
}));
