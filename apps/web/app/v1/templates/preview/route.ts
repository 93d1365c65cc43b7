import { previewTemplate } from '@svc/contracts';
import * as core from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const POST = handle(previewTemplate, async ({ ctx, principal, body }) => ({
  status: 200,
  body: await core.previewTemplate(ctx, { principal, request: body }),
  // untrusted customer HTML for an isolated preview: never cached by anyone
  headers: { 'cache-control': 'private, no-store' },
}));
