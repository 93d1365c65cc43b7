import { getTemplateVersion } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../../../src/http/handle.ts';

export const GET = handle(getTemplateVersion, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await core.getTemplateVersion(ctx, { accountId: principal.accountId, templateId: params.template_id ?? '', version: params.version ?? '' }),
}));
