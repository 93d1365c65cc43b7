import { createTemplateOperation, listTemplatesOperation } from '@svc/contracts';
import { createTemplate, listTemplates } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { templateDetailBody, templateSummaryBody } from '../../../src/http/views/templates.ts';

export const POST = handle(createTemplateOperation, async ({ ctx, principal, body }) => ({
  status: 201,
  body: templateDetailBody(await createTemplate(ctx, { accountId: principal.accountId, request: body })),
}));

export const GET = handle(listTemplatesOperation, async ({ ctx, principal, query }) => {
  const page = await listTemplates(ctx, { accountId: principal.accountId, ...query });
  return { status: 200, body: { tag_options: page.tagOptions, items: page.items.map(templateSummaryBody), next_cursor: page.nextCursor } };
});
