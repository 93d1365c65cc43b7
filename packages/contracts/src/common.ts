import { idPattern, uncapturedIdSource } from '@svc/rules';
import { z } from 'zod';

/** An identifier: a fixed prefix and 32 lowercase hex characters (the contract's identifier rule, kept in @svc/rules). */
export { assetIdPrefix, idPattern, idSource } from '@svc/rules';

/**
 * A signed link token of an id with one of `prefixes`: "<id>.<expiry, unix seconds>.<base64url
 * HMAC-SHA256>", capturing the id, the expiry and the signature.
 */
export function signedLinkPattern(...prefixes: readonly string[]): RegExp {
  return new RegExp(`^(${uncapturedIdSource(...prefixes)})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{43})$`);
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

/** The query of an operation that takes no parameters: any parameter is refused as an unknown field. */
export const NoQuery = z.strictObject({});

/**
 * An array without repeated items. The refusal and the published uniqueItems keyword
 * come from this one place, so the server and the contract cannot disagree.
 */
export function distinctItems<T extends z.ZodArray>(array: T, message: string): T {
  return array.refine((items) => new Set(items).size === items.length, { message }).meta({ uniqueItems: true });
}

/**
 * A string whose trimmed length (String.prototype.trim, which removes what \s matches) is
 * min to max characters, as a pattern both the server and JSON Schema validators run.
 * Every repetition is bounded or followed by a required \S, so matching stays linear.
 */
export function trimmedLengthPattern(min: 0 | 1, max: number): RegExp {
  const filled = `\\s*\\S(?:[\\s\\S]{0,${max - 2}}\\S)?\\s*`;
  return new RegExp(min === 0 ? `^(?:\\s*|${filled})$` : `^${filled}$`);
}

/**
 * Publishes `schema` in the contract as `json` while the server keeps parsing with `schema`.
 * For a value the wire carries in another form (a path segment is text, the contract says
 * integer) or a rule a use-case checks with its own error code, by the same constants.
 */
export function publishedAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  // a copy from the same definition: the original keeps its own JSON Schema, and no parent link is left for the generator to follow
  const published = schema.clone(schema._zod.def) as T;
  published._zod.toJSONSchema = () => structuredClone(json);
  return published;
}
