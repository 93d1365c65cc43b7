import { submitTestimonialOperation } from '@svc/contracts';
import { submitTestimonial } from '@svc/core';
import { clientAddress } from '../../../src/http/client-address.ts';
import { handle } from '../../../src/http/handle.ts';

export const POST = handle(submitTestimonialOperation, async ({ ctx, body, request }) => ({
  status: 201,
  body: await submitTestimonial(ctx, {
    name: body.name,
    company: body.company,
    quote: body.quote,
    captchaToken: body.captcha_token,
    clientAddress: clientAddress(request),
  }),
}));
