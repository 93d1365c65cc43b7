import { fieldReasons } from '@svc/rules';
import { z } from 'zod';
import { restErrorCodes } from './errors.ts';
import { named } from './registry.ts';

export { type FieldReason, fieldReasons } from '@svc/rules';

export const planNames = ['scale', 'growth', 'starter', 'pack', 'free'] as const;

export const FieldDetail = named(
  'FieldDetail',
  z.strictObject({
    field: z.string().max(260),
    reason: z.enum(fieldReasons),
    line: z.int().min(1).max(1_000_000).optional(),
    column: z.int().min(1).max(1_000_000).optional(),
  }),
);
export type FieldDetail = z.infer<typeof FieldDetail>;

export const maxFieldDetails = 16;

export const ErrorEnvelope = named(
  'ErrorEnvelope',
  z.strictObject({
    error: z.strictObject({
      code: z.enum(restErrorCodes as [string, ...string[]]),
      message: z.string(),
      request_id: z.uuid(),
      details: z.array(FieldDetail).max(maxFieldDetails).optional(),
      retry: z.strictObject({ retry_after_seconds: z.int().min(1).max(60) }).optional(),
      plan_limit: z.strictObject({ plan: z.enum(planNames), limit: z.int().min(1) }).optional(),
    }),
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
