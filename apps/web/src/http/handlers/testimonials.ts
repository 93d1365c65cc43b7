import { getCaptchaChallengeOperation, submitTestimonialOperation } from '@svc/contracts';
import { createCaptchaChallenge, submitTestimonial } from '@svc/core';
import { clientAddress } from '../client-address.ts';
import { handle, type OperationHandlers } from '../handle.ts';

export const testimonialHandlers = {
  getCaptchaChallenge: handle(getCaptchaChallengeOperation, async ({ ctx }) => ({
    status: 200,
    body: await createCaptchaChallenge(ctx),
    headers: { 'cache-control': 'no-store' },
  })),

  submitTestimonial: handle(submitTestimonialOperation, async ({ ctx, body, request }) => ({
    status: 201,
    body: await submitTestimonial(ctx, {
      name: body.name,
      company: body.company,
      quote: body.quote,
      captchaToken: body.captcha_token,
      clientAddress: clientAddress(request),
    }),
  })),
} satisfies Partial<OperationHandlers>;
