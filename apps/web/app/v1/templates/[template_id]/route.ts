import { archiveTemplateOperation, getTemplateOperation, updateTemplateOperation } from '@svc/contracts';
import { archiveTemplate, getTemplate, updateTemplate } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { templateDetailBody, templateSummaryBody } from '../../../../src/http/views/templates.ts';

export const GET = handle(getTemplateOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateDetailBody(await getTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id })),
}));

export const PATCH = handle(updateTemplateOperation, async ({ ctx, principal, params, body }) => ({
  status: 200,
  body: templateSummaryBody(await updateTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id, changes: body })),
}));

export const DELETE = handle(archiveTemplateOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateSummaryBody(await archiveTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id })),
}));
