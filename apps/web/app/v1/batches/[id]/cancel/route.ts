import { cancelBatchOperation } from '@svc/contracts';
import { cancelBatch } from '@svc/core';
import { handle } from '../../../../../src/http/handle.ts';
import { batchBody } from '../../../../../src/http/views/groups.ts';

export const POST = handle(cancelBatchOperation, async ({ ctx, principal, params }) => ({
  status: 200,
  body: await batchBody(ctx, await cancelBatch(ctx, { accountId: principal.accountId, batchId: params.id })),
}));
