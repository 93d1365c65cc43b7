// Server actions of the dashboard, each made with sessionAction: the session cookie and the
// session's CSRF token are checked (on top of Next's own origin check of every action), the
// input is parsed with zod, and the handler calls a core use-case with the session principal.
// The answer is a typed result carrying the one error table's codes, never a thrown error.
import { type ErrorCode, findUnsafeText, sessionCookieName, unsafeTextDetail } from '@svc/contracts';
import { authenticateSession, DomainError, type SessionPrincipal, type ServiceContext } from '@svc/core';
import { cookies } from 'next/headers';
import { unstable_rethrow } from 'next/navigation';
import { z } from 'zod';
import { serviceContext } from '../http/context.ts';
import { csrfFieldName } from './csrf.ts';
import { customerMessage, customerReason, urlRefusalMessage } from './error-text.ts';

export type ActionResult<T = null> =
  | { ok: true; data: T }
  | {
      ok: false;
      code: ErrorCode;
      message: string;
      /** Input fields at fault (dotted paths), with a short reason, for showing next to the field. */
      fields?: Record<string, string>;
    };

/** What a server action made with sessionAction accepts: a form's data or a plain object (with the CSRF token under _csrf). */
export type ActionInput = FormData | Record<string, unknown>;

/** A server action: usable as a form action with useActionState, or called with a plain object. */
export type SessionAction<T> = (previous: ActionResult<T> | null, input: ActionInput) => Promise<ActionResult<T>>;

export interface ActionContext {
  ctx: ServiceContext;
  principal: SessionPrincipal;
  accountId: string;
}

/** The failure result of an error code, in the dashboard's words (error-text.ts). */
export function failure(code: ErrorCode, fields?: Record<string, string>, message?: string): ActionResult<never> {
  return { ok: false, code, message: customerMessage(code, message), ...(fields ? { fields } : {}) };
}

/** The failure result of a refusal from the core: a refused endpoint URL is told in one sentence, not as a field. */
function refused(error: DomainError): ActionResult<never> {
  const details = error.details ?? [];
  const url = urlRefusalMessage(details);
  if (url) return failure(error.code, undefined, url);
  return failure(error.code, details.length > 0 ? fieldsOfDetails(details) : undefined, error.clientMessage);
}

/**
 * Makes a server action. `schema` parses the input (a FormData becomes an object first: a
 * field given once is a string, a field given more often or named "name[]" is an array);
 * `handler` runs only for a live session whose CSRF token came with the input.
 */
export function sessionAction<S extends z.ZodType, T>(
  schema: S,
  handler: (input: z.output<S>, context: ActionContext) => Promise<T>,
): SessionAction<T> {
  return async (_previous, input) => {
    const ctx = serviceContext();
    try {
      const { csrf, fields } = splitInput(input);
      const secret = (await cookies()).get(sessionCookieName)?.value;
      if (!secret) return failure('signed_out');
      const principal = await authenticateSession(ctx, { secret, csrfToken: csrf, write: true });
      const parsed = schema.safeParse(fields);
      if (!parsed.success) return failure('invalid_request', fieldsOfIssues(parsed.error.issues));
      // text the service cannot store or evaluate whole is refused, as on the API (text-integrity.ts)
      const unsafe = findUnsafeText(parsed.data);
      if (unsafe !== null) return failure('invalid_request', fieldsOfDetails([unsafeTextDetail(unsafe)]));
      const data = await handler(parsed.data, { ctx, principal, accountId: principal.accountId });
      return { ok: true, data };
    } catch (error) {
      // redirect() and notFound() from a handler are Next's control flow, not failures
      unstable_rethrow(error);
      if (error instanceof DomainError) return refused(error);
      ctx.logger.error('dashboard action failed', { error: error instanceof Error ? error.stack : String(error) });
      return failure('internal_error');
    }
  };
}

function splitInput(input: ActionInput): { csrf: string | null; fields: Record<string, unknown> } {
  if (!(input instanceof FormData)) {
    const { [csrfFieldName]: csrf, ...fields } = input ?? {};
    return { csrf: typeof csrf === 'string' ? csrf : null, fields };
  }
  const fields: Record<string, unknown> = {};
  let csrf: string | null = null;
  for (const key of new Set(input.keys())) {
    // React adds its own $ACTION_ fields to forms bound to actions
    if (key.startsWith('$ACTION')) continue;
    const values = input.getAll(key);
    if (key === csrfFieldName) {
      csrf = typeof values[0] === 'string' ? values[0] : null;
    } else if (key.endsWith('[]')) {
      fields[key.slice(0, -2)] = values;
    } else {
      fields[key] = values.length === 1 ? values[0] : values;
    }
  }
  return { csrf, fields };
}

function fieldsOfIssues(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return fields;
}

function fieldsOfDetails(details: readonly { field: string; reason: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const detail of details) fields[detail.field] ??= customerReason(detail.reason);
  return fields;
}

/** Zod helpers for form fields, where every value arrives as text. */
export const formFields = {
  /** Trimmed text; an empty field is undefined. */
  optionalText: (max = 200) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value), z.string().max(max).optional()),
  /** Trimmed, non-empty text. */
  text: (max = 200) => z.preprocess((value) => (typeof value === 'string' ? value.trim() : value), z.string().min(1, 'Required').max(max)),
  /** A whole number; an empty field is null. */
  optionalInt: (min = 0, max = Number.MAX_SAFE_INTEGER) =>
    z.preprocess((value) => (value === '' || value === undefined ? null : typeof value === 'string' ? Number(value) : value), z.int().min(min).max(max).nullable()),
  /** A checkbox: present means on. */
  checkbox: () => z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean()),
  /** Values of a repeated field (checkboxes of one name), always an array. */
  many: <T extends z.ZodType>(item: T) => z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item)),
};
