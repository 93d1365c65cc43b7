import { createTemplateBuildOperation } from '@svc/contracts';
import { createTemplateBuild } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { templateBuildBody } from '../../../src/http/views/template-builds.ts';

export const POST = handle(createTemplateBuildOperation, async ({ ctx, principal, body, request }) => {
  const { build, replayed } = await createTemplateBuild(ctx, { principal, request: body, idempotencyKey: request.headers.get('idempotency-key') });
  return { status: replayed ? 200 : 202, body: templateBuildBody(build) };
});
