import { getTemplateBuildDraftOperation } from '@svc/contracts';
import { getBuildDraft } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { noStoreHeaders } from '../../../../../src/http/views/template-builds.ts';

export const GET = handle(getTemplateBuildDraftOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await getBuildDraft(ctx, { accountId: principal.accountId, buildId: params.build_id }),
  headers: noStoreHeaders,
}));
