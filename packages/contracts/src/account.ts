import { z } from 'zod';
import { NoQuery, Timestamp } from './common.ts';
import { defineOperation, jsonBodyErrors } from './operation.ts';
import { named } from './registry.ts';

/** Account and sign-in bodies are small: 16 KiB like the other account routes (the contract's limits). */
export const accountBodyLimit = 16 * 1024;
export const maxEmailLength = 254;
export const maxNextPathLength = 2048;
/**
 * The HTML form rule for an address (WHATWG "valid e-mail address"), plus a dot in the domain:
 * ASCII only, no quoting, no whitespace or line breaks (nothing can reach a mail header).
 */
export const emailAddressPattern =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** A local path: one leading slash (not two), printable ASCII without a backslash, which browsers read as a slash. */
export const localPathPattern = /^\/(?!\/)[\x21-\x5b\x5d-\x7e]*$/;

const Plan = z.enum(['scale', 'growth', 'starter', 'pack', 'free']);
const Count = z.int().min(0);

export const AccountMe = named(
  'AccountMe',
  z.strictObject({
    id: z.string(),
    plan: Plan,
    status: z.enum(['active', 'suspended']),
    email: z.string().nullable().meta({ description: 'The proven email address, or null; set once and never changed.' }),
    balances: z
      .strictObject({ free_monthly: Count, subscription: Count, trial: Count, pack: Count })
      .meta({ description: 'Credits by bucket, in the order they pay.' }),
    reserved: Count.meta({ description: 'Credits held for jobs still queued or running.' }),
    overage_this_month: Count.meta({ description: 'Overage credits used this calendar month (UTC), all keys together.' }),
    provenance_key: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({
        description:
          "The account's provenance key (32 bytes, hex). A rendered file's data hash (SvcDataSha256) is hmac-sha256: and the " +
          'HMAC-SHA-256 (hex) of the data as canonical JSON (keys sorted at every level) under this key; it never changes.',
      }),
    csrf_token: z
      .string()
      .optional()
      .meta({ description: 'Only with the session cookie: the value of x-csrf-token on every write made with the cookie.' }),
  }),
  'The calling account (GET /v1/me).',
);
export type AccountMe = z.infer<typeof AccountMe>;

// the server parses up to four times the length and answers a longer or malformed address with 422 invalid_email
const EmailText = z.string().max(maxEmailLength * 4).meta({ maxLength: maxEmailLength, pattern: emailAddressPattern.source, description: `An email address of at most ${maxEmailLength} characters (422 invalid_email otherwise).` });

export const AccountEmailRequest = named(
  'AccountEmailRequest',
  z.strictObject({
    email: EmailText,
    next: z
      .string()
      .max(maxNextPathLength)
      .meta({ pattern: localPathPattern.source })
      .optional()
      .meta({ description: 'A local path (starting with one /) to open after confirmation; default /account. Anything else answers 400.' }),
  }),
);
export type AccountEmailRequest = z.infer<typeof AccountEmailRequest>;

export const AccountEmailAccepted = named('AccountEmailAccepted', z.strictObject({}), 'Accepted; says nothing about delivery or other accounts.');

export const EmailSignInRequest = named('EmailSignInRequest', z.strictObject({ email: EmailText }));
export type EmailSignInRequest = z.infer<typeof EmailSignInRequest>;

export const EmailSignInAccepted = named(
  'EmailSignInAccepted',
  z.strictObject({}),
  'The same answer whether or not the address has an account.',
);

export const EmailConfirmRequest = named(
  'EmailConfirmRequest',
  z.strictObject({ token: z.string().min(1).max(256).meta({ description: 'The token from the emailed link.' }) }),
);
export type EmailConfirmRequest = z.infer<typeof EmailConfirmRequest>;

export const EmailConfirmed = named(
  'EmailConfirmed',
  z.strictObject({
    email: z.string(),
    confirmed_at: Timestamp,
    credits_granted: Count.meta({ description: 'Free monthly credits granted for the current month (once per account).' }),
    next: z.string().meta({ description: 'The local path given when the link was requested.' }),
  }),
);
export type EmailConfirmed = z.infer<typeof EmailConfirmed>;

const tag = 'Account';

export const getMeOperation = defineOperation({
  operationId: 'getMe',
  method: 'get',
  path: '/v1/me',
  tag,
  summary: 'The calling account, and for a browser session its CSRF token',
  auth: 'bearer_or_session',
  query: NoQuery,
  responses: { 200: { description: 'The account', schema: AccountMe } },
  errors: [],
});

export const signOutOperation = defineOperation({
  operationId: 'signOut',
  method: 'post',
  path: '/v1/auth/sign-out',
  tag,
  summary: 'End the browser session and clear its cookie',
  auth: 'session',
  responses: { 204: { description: 'Signed out; the cookie is cleared' } },
  errors: [],
});

export const requestEmailIdentityOperation = defineOperation({
  operationId: 'requestEmailIdentity',
  method: 'post',
  path: '/v1/me/identities/email',
  tag,
  summary: 'Email a one-use link that proves an address for this account',
  description:
    'The link is bound to the account and to the exact session that asked; POST /v1/auth/email/confirm with its token ' +
    'proves the address and grants the current free monthly credits once. An account that has an address cannot change it here.',
  auth: 'session',
  body: { schema: AccountEmailRequest, maxBytes: accountBodyLimit },
  responses: { 202: { description: 'Accepted (does not confirm delivery)', schema: AccountEmailAccepted } },
  errors: [...jsonBodyErrors, 'email_already_set', 'invalid_email', 'rate_limited', 'auth_unavailable'],
});

export const confirmEmailOperation = defineOperation({
  operationId: 'confirmEmail',
  method: 'post',
  path: '/v1/auth/email/confirm',
  tag,
  summary: 'Prove an email address with the token of an emailed link (same session that asked for it)',
  auth: 'session',
  body: { schema: EmailConfirmRequest, maxBytes: accountBodyLimit },
  responses: { 200: { description: 'The address is the account’s', schema: EmailConfirmed } },
  errors: [...jsonBodyErrors, 'invalid_link', 'email_already_set', 'operation_conflict'],
});

export const requestEmailSignInOperation = defineOperation({
  operationId: 'requestEmailSignIn',
  method: 'post',
  path: '/v1/auth/email/sign-in',
  tag,
  summary: 'Email a one-use sign-in link',
  description:
    'Always the same 202 whether or not the address has an account; an address without one gets a link that opens a ' +
    'free account on first use. The link lasts 15 minutes.',
  auth: 'none',
  body: { schema: EmailSignInRequest, maxBytes: accountBodyLimit },
  responses: { 202: { description: 'Accepted', schema: EmailSignInAccepted } },
  errors: [...jsonBodyErrors, 'invalid_email', 'rate_limited', 'auth_unavailable'],
});

export const accountOperationList = [
  getMeOperation,
  signOutOperation,
  requestEmailIdentityOperation,
  confirmEmailOperation,
  requestEmailSignInOperation,
] as const;
