import {
  adaptTemplateOperation,
  archiveTemplateOperation,
  createTemplateOperation,
  createTemplateVersionOperation,
  getTemplateOperation,
  getTemplateVersionOperation,
  listTemplatesOperation,
  listTemplateVersionsOperation,
  previewTemplateOperation,
  updateTemplateOperation,
} from '@svc/contracts';
import {
  adaptTemplate,
  archiveTemplate,
  createTemplate,
  createTemplateVersion,
  getTemplate,
  getTemplateVersion,
  listTemplates,
  listTemplateVersions,
  previewTemplate,
  updateTemplate,
} from '@svc/core';
import { handle, type OperationHandlers } from '../handle.ts';
import { adaptBody, templateDetailBody, templateSummaryBody, templateVersionBody } from '../views/templates.ts';

export const templateHandlers = {
  createTemplate: handle(createTemplateOperation, async ({ ctx, principal, body }) => ({
    status: 201,
    body: templateDetailBody(await createTemplate(ctx, { accountId: principal.accountId, request: body })),
  })),

  listTemplates: handle(listTemplatesOperation, async ({ ctx, principal, query }) => {
    const page = await listTemplates(ctx, { accountId: principal.accountId, ...query });
    return { status: 200, body: { tag_options: page.tagOptions, items: page.items.map(templateSummaryBody), next_cursor: page.nextCursor } };
  }),

  previewTemplate: handle(previewTemplateOperation, async ({ ctx, principal, body }) => ({
    status: 200,
    body: await previewTemplate(ctx, { principal, request: body }),
    // untrusted customer HTML for an isolated preview: never cached by anyone
    headers: { 'cache-control': 'private, no-store' },
  })),

  adaptTemplate: handle(adaptTemplateOperation, async ({ ctx, principal, body }) => ({
    status: 200,
    body: adaptBody(await adaptTemplate(ctx, { principal, request: body })),
  })),

  getTemplate: handle(getTemplateOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateDetailBody(await getTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id })),
  })),

  updateTemplate: handle(updateTemplateOperation, async ({ ctx, principal, params, body }) => ({
    status: 200,
    body: templateSummaryBody(await updateTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id, changes: body })),
  })),

  archiveTemplate: handle(archiveTemplateOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateSummaryBody(await archiveTemplate(ctx, { accountId: principal.accountId, templateId: params.template_id })),
  })),

  createTemplateVersion: handle(createTemplateVersionOperation, async ({ ctx, principal, params, body }) => ({
    status: 201,
    body: templateVersionBody(await createTemplateVersion(ctx, { accountId: principal.accountId, templateId: params.template_id, request: body })),
  })),

  listTemplateVersions: handle(listTemplateVersionsOperation, async ({ ctx, principal, params, query }) => {
    const page = await listTemplateVersions(ctx, { accountId: principal.accountId, templateId: params.template_id, ...query });
    return {
      status: 200,
      body: { items: page.items.map((item) => ({ version: item.version, created_at: item.createdAt.toISOString() })), next_cursor: page.nextCursor },
    };
  }),

  getTemplateVersion: handle(getTemplateVersionOperation, async ({ ctx, principal, params }) => ({
    status: 200,
    body: templateVersionBody(
      await getTemplateVersion(ctx, { accountId: principal.accountId, templateId: params.template_id, version: params.version }),
    ),
  })),
} satisfies Partial<OperationHandlers>;
