import { archiveTemplate, getTemplate, updateTemplate } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const GET = handle(getTemplate, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.getTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id ?? '' }),
}));

export const PATCH = handle(updateTemplate, async ({ ctx, principal, params, body }) => ({
  status: 200,
  body: await core.updateTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id ?? '', changes: body }),
}));

export const DELETE = handle(archiveTemplate, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.archiveTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id ?? '' }),
}));
