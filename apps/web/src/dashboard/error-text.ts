// What the dashboard says when something is refused: a sentence saying what happened and what
// to do, in the customer's words. The API keeps its codes and its fixed messages; the dashboard
// shows these instead wherever the API's would speak of headers, settings, statuses or "details".
// Every refusal the dashboard shows passes through here (actions, the sign-in form, notices).
import { type ErrorCode, errorDefinition, type FieldDetail } from '@svc/contracts';

const sentences: Partial<Record<ErrorCode, string>> = {
  signed_out: 'Your session ended. Sign in again to continue.',
  csrf_rejected: 'This page is out of date. Reload the page and try again.',
  invalid_request: 'Some of what you entered cannot be used. Correct it and try again.',
  idempotency_conflict: 'This was already sent with different content. Reload the page and send it again.',
  request_too_large: 'That is more than one request can hold. Send less at a time.',
  unsupported_media_type: 'That could not be read. Reload the page and try again.',
  cross_origin_rejected: 'That came from another site, so it was refused. Use this page to make the change.',
  rate_limited: 'Too many requests in a short time. Wait a minute and try again.',
  operation_limit_exceeded: 'Too many requests in a short time. Wait a minute and try again.',
  account_concurrency_limited: 'Your account has many renders in progress. Wait for some to finish and try again.',
  key_concurrency_limited: 'This key has many renders in progress. Wait for some to finish and try again.',
  internal_error: 'Something went wrong on our side. Try again in a moment.',
  overloaded: 'The service is busy right now. Try again in a moment.',
  auth_unavailable: 'Email is not set up on this installation, so no link can be sent.',
  provider_unavailable: 'AI is not set up on this installation. A template source still becomes a draft, at no cost.',
  image_asset_unavailable: 'Images cannot be stored right now. Try again in a moment.',
  billing_unavailable: 'Billing cannot be reached right now. Try again in a moment.',
  image_url_invalid: 'That image address cannot be used: give a public http or https address without a user name or password.',
  image_url_unavailable: 'The image at that address could not be read. Check that it opens in a browser, then try again.',
  image_asset_invalid: 'That image cannot be used: send a still PNG, JPEG or WebP of at most 7680 × 4320 pixels.',
  image_asset_type_unsupported: 'That file is not a PNG, JPEG or WebP image. Choose one of those.',
  brand_asset_type_unsupported: 'That file type cannot be used. Send a PNG, JPEG or WebP logo, or a WOFF2 font.',
  brand_asset_kind_mismatch: 'That file is not what its type says (a font sent as an image, or an image as a font). Choose the right file.',
  template_version_changed: 'The template changed while this was being sent. Try again.',
  job_not_finished: 'This render is still in progress. Wait for it to finish, then try again.',
  insufficient_credits: 'Your account does not have enough credits for this. Add credits, then try again.',
  ai_needs_paid_credits: 'AI work is paid from trial, pack or subscription credits; free monthly credits do not cover it.',
};

/** Why an endpoint URL is refused (the egress policy's refusals), in words. */
const urlRefusals: Record<string, string> = {
  url_malformed: 'it is not a whole web address. Enter one such as https://example.com/hooks.',
  url_too_long: 'it is longer than 2,048 characters. Use a shorter address.',
  scheme_not_https: 'it does not start with https://, and events are sent only over https.',
  scheme_not_allowed: 'only http and https addresses can be used.',
  port_not_allowed: 'it names a port other than the standard https port. Leave the port out of the address.',
  credentials_not_allowed: 'it holds a user name or password. Leave them out and check the signature of each event instead.',
  host_not_resolvable: 'its host name could not be found. Check the spelling.',
  loopback_address: 'it points at the machine itself. Use a public address your receiver answers on.',
  unspecified_address: 'it names no machine. Use a public address your receiver answers on.',
  invalid_address: 'it names no reachable machine. Use a public address your receiver answers on.',
  metadata_address: 'it points at a cloud provider’s internal service. Use a public address your receiver answers on.',
};
const privateNetwork = 'it points into a private or reserved network, which cannot be reached from here. Use a public address your receiver answers on.';

/** The API's short field reasons, said as what to do; the template and data reasons are sentences already. */
const fieldReasons: Record<string, string> = {
  'missing field': 'Fill this in.',
  'unknown field': 'This is not expected here.',
  'wrong type': 'This is not the right kind of value.',
  'invalid value': 'This value cannot be used.',
  'malformed JSON': 'This is not valid JSON.',
};

/** A field problem's reason in words. */
export function customerReason(reason: string): string {
  return fieldReasons[reason] ?? reason;
}

/** The sentence for a refusal: the words the failure itself carries (naming what is wrong), else this table's, else the API's. */
export function customerMessage(code: ErrorCode, named?: string): string {
  return named ?? sentences[code] ?? errorDefinition(code).message;
}

/**
 * A refused endpoint URL (details field `url.<refusal>`) as one sentence, or null. The other
 * details stay field problems shown beside the message.
 */
export function urlRefusalMessage(details: readonly FieldDetail[]): string | null {
  const refused = details.find((detail) => detail.field.startsWith('url.'));
  if (!refused) return null;
  const refusal = refused.field.slice('url.'.length);
  const why = urlRefusals[refusal] ?? (refusal.endsWith('_address') ? privateNetwork : 'it is not allowed. Use a public https address.');
  return `This endpoint URL cannot receive events: ${why}`;
}
