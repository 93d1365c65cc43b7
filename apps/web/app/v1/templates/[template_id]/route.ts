import { archiveTemplate, getTemplate, updateTemplate } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const GET = handle(getTemplate, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.getTemplate(ctx, { accountId: caller.accountId, templateId: params.template_id ?? '' }),
}));

export const PATCH = handle(updateTemplate, async ({ ctx, caller, params, body }) => ({
  status: 200,
  body: await core.updateTemplate(ctx, { accountId: caller.accountId, templateId: params.template_id ?? '', changes: body }),
}));

export const DELETE = handle(archiveTemplate, async ({ ctx, caller, params }) => ({
  status: 200,
  body: await core.archiveTemplate(ctx, { accountId: caller.accountId, templateId: params.template_id ?? '' }),
}));
