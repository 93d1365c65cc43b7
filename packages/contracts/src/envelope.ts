import { z } from 'zod';
import { errorCodes } from './errors.ts';
import { named } from './registry.ts';

/** The fixed reason strings of a FieldDetail (spec part 7). */
export const fieldReasons = [
  'malformed JSON',
  'missing field',
  'unknown field',
  'wrong type',
  'invalid value',
  'A required value is missing.',
  'Use the expected value type.',
  'Declare this variable before using it.',
  'Choose an allowed value.',
  'Use the required format.',
  'Add a value.',
  'Use a shorter value.',
  'Use a number within the allowed range.',
  'Check this value against its data rule.',
] as const;
export type FieldReason = (typeof fieldReasons)[number];

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
      code: z.enum(errorCodes as [string, ...string[]]),
      message: z.string(),
      request_id: z.uuid(),
      details: z.array(FieldDetail).max(maxFieldDetails).optional(),
      retry: z.strictObject({ retry_after_seconds: z.int().min(1).max(60) }).optional(),
      plan_limit: z.strictObject({ plan: z.enum(planNames), limit: z.int().min(1) }).optional(),
    }),
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
