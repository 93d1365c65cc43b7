import { adaptTemplate } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const POST = handle(adaptTemplate, async ({ ctx, principal, body }) => ({
  status: 200,
  body: await core.adaptTemplate(ctx, { principal, request: body }),
}));
