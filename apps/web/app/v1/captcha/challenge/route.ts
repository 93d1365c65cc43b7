import { getCaptchaChallengeOperation } from '@svc/contracts';
import { createCaptchaChallenge } from '@svc/core';
import { handle } from '../../../../src/http/handle.ts';

export const GET = handle(getCaptchaChallengeOperation, async ({ ctx }) => ({
  status: 200,
  body: await createCaptchaChallenge(ctx),
  headers: { 'cache-control': 'no-store' },
}));
