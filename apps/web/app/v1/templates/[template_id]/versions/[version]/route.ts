import { getTemplateVersionOperation } from '@svc/contracts';
import { getTemplateVersion } from '@svc/core';
import { handle } from '../../../../../../src/http/handle.ts';
import { templateVersionBody } from '../../../../../../src/http/views/templates.ts';

export const GET = handle(getTemplateVersionOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: templateVersionBody(
    await getTemplateVersion(ctx, { accountId: principal.accountId, templateId: params.template_id, version: params.version }),
  ),
}));
