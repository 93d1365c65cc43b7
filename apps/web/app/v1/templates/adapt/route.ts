import { adaptTemplateOperation } from '@svc/contracts';
import { adaptTemplate } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';
import { adaptBody } from '../../../../src/http/views/templates.ts';

export const POST = handle(adaptTemplateOperation, async ({ ctx, principal, body }) => ({
  status: 200,
  body: adaptBody(await adaptTemplate(ctx, { principal, request: body })),
}));
