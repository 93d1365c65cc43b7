import { z } from 'zod';
import { NoQuery } from './common.ts';
import { defineOperation, jsonBodyErrors } from './operation.ts';
import { named } from './registry.ts';

export const testimonialBodyLimit = 16 * 1024;

const text = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((value) => value.trim().length >= min, { message: 'blank' })
    // the refine's rule as JSON Schema: two visible characters at least min apart
    .meta({ pattern: `\\S[\\s\\S]{${min - 2},}\\S` });

export const TestimonialRequest = named(
  'TestimonialRequest',
  z.strictObject({
    name: text(2, 80),
    company: text(2, 120),
    quote: text(20, 1000),
    permission: z.literal(true).meta({ description: 'Must be true: the author allows publication after review.' }),
    captcha_token: z.string().min(1).max(2048).meta({ description: 'The solved challenge from GET /v1/captcha/challenge (the ALTCHA widget payload).' }),
  }),
);
export type TestimonialRequest = z.infer<typeof TestimonialRequest>;

export const TestimonialSubmission = named('TestimonialSubmission', z.strictObject({ id: z.uuid() }));

export const CaptchaChallenge = named(
  'CaptchaChallenge',
  z.object({
    parameters: z.record(z.string(), z.unknown()).meta({ description: 'Proof-of-work parameters (algorithm, nonce, salt, cost, key prefix, expiry).' }),
    signature: z.string(),
  }),
  'An ALTCHA proof-of-work challenge: the widget solves it and submits the result as captcha_token.',
);

export const getCaptchaChallengeOperation = defineOperation({
  operationId: 'getCaptchaChallenge',
  method: 'get',
  path: '/v1/captcha/challenge',
  tag: 'Public',
  summary: 'A fresh proof-of-work CAPTCHA challenge (ten minutes, each solution accepted once)',
  auth: 'none',
  query: NoQuery,
  responses: { 200: { description: 'The challenge', schema: CaptchaChallenge } },
  errors: [],
});

export const submitTestimonialOperation = defineOperation({
  operationId: 'submitTestimonial',
  method: 'post',
  path: '/v1/testimonials',
  tag: 'Public',
  summary: 'Submit a testimonial for private review',
  description:
    'Only from the service’s own browser origin (Origin equal to the service’s, else 403 cross_origin_rejected) and with a ' +
    'fresh solved CAPTCHA (403 captcha_rejected). Stored for review, never published by this call.',
  auth: 'none',
  sameOrigin: true,
  body: { schema: TestimonialRequest, maxBytes: testimonialBodyLimit, invalidCode: 'testimonial_invalid' },
  responses: { 201: { description: 'Stored for review', schema: TestimonialSubmission } },
  errors: [...jsonBodyErrors, 'testimonial_invalid', 'cross_origin_rejected', 'captcha_rejected', 'testimonial_rate_limited'],
});

export const testimonialOperationList = [getCaptchaChallengeOperation, submitTestimonialOperation] as const;
