import { previewTemplateOperation } from '@svc/contracts';
import { previewTemplate } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const POST = handle(previewTemplateOperation, async ({ ctx, principal, body }) => ({
  status: 200,
  body: await previewTemplate(ctx, { principal, request: body }),
  // untrusted customer HTML for an isolated preview: never cached by anyone
  headers: { 'cache-control': 'private, no-store' },
}));
