import { z } from 'zod';

/** An identifier: a fixed prefix and 32 lowercase hex characters (spec 2.1). */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}[0-9a-f]{32}$`);
}

export function idSchema(prefix: string) {
  return z.string().regex(idPattern(prefix)).meta({ description: `${prefix} followed by 32 lowercase hex characters` });
}

export const Timestamp = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 date-time' });

/** Page size of a list: 1 to 100, default 20; refused out of range. */
export const StrictLimit = z.coerce.number().int().min(1).max(100).default(20);

export const Cursor = z.string().min(1).max(128);

/** Printable ASCII (space to tilde) with at least one visible character. */
export const PrintableName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\x20-\x7e]+$/)
  .regex(/[^ ]/);
