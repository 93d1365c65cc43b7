import { createTemplateVersionOperation, listTemplateVersionsOperation } from '@svc/contracts';
import { createTemplateVersion, listTemplateVersions } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { templateVersionBody } from '../../../../../src/http/views/templates.ts';

export const POST = handle(createTemplateVersionOperation, async ({ ctx, principal, params, body }) => ({
  status: 201,
  body: templateVersionBody(await createTemplateVersion(ctx, { accountId: principal.accountId, templateId: params.template_id, request: body })),
}));

export const GET = handle(listTemplateVersionsOperation, async ({ ctx, principal, params, query }) => {
  const page = await listTemplateVersions(ctx, { accountId: principal.accountId, templateId: params.template_id, ...query });
  return {
    status: 200,
    body: { items: page.items.map((item) => ({ version: item.version, created_at: item.createdAt.toISOString() })), next_cursor: page.nextCursor },
  };
});
