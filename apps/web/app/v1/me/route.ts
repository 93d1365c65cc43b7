import { getMeOperation } from '@svc/contracts';
import { showAccount } from '@svc/core';
import { handle } from '../../../src/http/handle.ts';
import { accountMeBody } from '../../../src/http/views/account.ts';

export const GET = handle(getMeOperation, async ({ ctx, principal }) => ({
  status: 200,
  body: accountMeBody(await showAccount(ctx, principal.accountId), principal),
  headers: { 'cache-control': 'private, no-store' },
}));
