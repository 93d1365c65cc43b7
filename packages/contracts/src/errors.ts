// The one table of error codes: HTTP status and fixed client message for each.
// REST responses, OpenAPI and tests all read it; the ErrorCode type is derived from it.
// Messages are fixed text and never carry customer input, with one exception below:
// template_missing_data names the missing variable (missingDataMessage).

const table = {
  // 400
  invalid_request: [400, 'The request is not valid. See details for the fields to fix.'],
  invalid_cursor: [400, 'The cursor is not valid for this list.'],
  batch_row_limit: [400, 'The batch has more rows than the plan allows.'],
  brand_data_conflict: [400, 'The data must not contain brand when a brand kit is selected.'],
  image_asset_reference_invalid: [400, 'An image reference is not valid or not owned by this account.'],
  image_asset_header_unsupported: [400, 'Image references are not supported in PDF header and footer templates.'],
  image_url_invalid: [400, 'The image URL is not allowed: use a public http or https address without credentials. See details for the reason.'],
  invalid_event: [400, 'The event is not valid.'],
  invalid_link: [400, 'The link is not valid.'],
  invalid_profile: [400, 'The profile is not valid.'],
  invalid_upload: [400, 'The upload is not valid.'],
  brand_kit_patch_empty: [400, 'The update must change at least one field.'],
  playground_request_invalid: [400, 'The playground request is not valid.'],
  playground_selection_invalid: [400, 'The playground selection is not valid.'],
  policy_version_stale: [400, 'The policy version is out of date.'],
  template_data_invalid: [400, 'The data does not match the template schema.'],
  template_data_collection_limit: [400, 'A collection in the data is too large.'],
  template_data_depth_limit: [400, 'The data is nested too deeply.'],
  template_data_limit: [400, 'The data is too large.'],
  template_depth_limit: [400, 'The template nests too deeply.'],
  template_evaluation_error: [400, 'The template could not be evaluated.'],
  template_invalid_filter_input: [400, 'A template filter received a value it cannot use.'],
  template_missing_data: [400, 'The template uses a value that the data does not define.'],
  template_output_limit: [400, 'The template output is too large.'],
  template_schema_complexity: [400, 'The schema is too complex to validate.'],
  template_schema_draft_unsupported: [400, 'The schema uses an unsupported JSON Schema draft.'],
  template_schema_invalid: [400, 'The schema is not a valid JSON Schema.'],
  template_schema_too_large: [400, 'The schema is too large.'],
  template_size_canvas_mismatch: [400, 'A saved size source must declare exactly its width and height.'],
  template_size_data_overrides_too_large: [400, 'Saved size data overrides are too large.'],
  template_size_duplicate_id: [400, 'Saved size ids must be unique.'],
  template_size_invalid_dimensions: [400, 'A saved size has dimensions outside the allowed range.'],
  template_size_invalid_id: [400, 'A saved size id is not valid.'],
  template_size_invalid_name: [400, 'A saved size name is not valid.'],
  template_sizes_too_large: [400, 'The saved sizes are too large.'],
  template_sizes_too_many: [400, 'A version holds at most 20 saved sizes.'],
  template_source_limit: [400, 'The template source is too large.'],
  template_syntax_error: [400, 'The template has a syntax error.'],
  template_timeout: [400, 'The template took too long to evaluate.'],
  template_work_limit: [400, 'The template does too much work.'],
  testimonial_invalid: [400, 'The testimonial is not valid.'],
  query_too_complex: [400, 'The query is nested too deeply, selects too many fields or asks for too much. See the limits in the schema description.'],
  introspection_disabled: [400, 'Introspection is turned off on this server. The schema is published as schema.graphql with the service.'],
  // 401
  unauthorized: [401, 'A valid API key is required.'],
  signed_out: [401, 'The session has ended. Sign in again.'],
  // 402
  insufficient_credits: [402, 'The account does not have enough credits for this request.'],
  ai_needs_paid_credits: [402, 'AI work needs trial, pack or subscription credits.'],
  overage_limit_reached: [402, 'The monthly overage limit has been reached.'],
  spend_cap_reached: [402, 'The spending cap has been reached.'],
  // 403
  account_suspended: [403, 'The account is suspended.'],
  csrf_rejected: [403, 'The request is missing a valid CSRF token.'],
  cross_origin_rejected: [403, 'Cross-origin requests are not allowed here.'],
  captcha_rejected: [403, 'The CAPTCHA check did not pass.'],
  download_expired: [403, 'The download link has expired.'],
  abuse_limited: [403, 'This request was refused by abuse protection.'],
  // 404
  not_found: [404, 'The resource was not found.'],
  brand_kit_not_found: [404, 'The brand kit was not found.'],
  gallery_template_not_found: [404, 'The gallery template was not found.'],
  image_asset_not_found: [404, 'The image asset was not found.'],
  template_build_not_found: [404, 'The template build was not found.'],
  template_draft_not_found: [404, 'No draft exists yet.'],
  template_not_found: [404, 'The template was not found.'],
  // 405
  method_not_allowed: [405, 'This method is not allowed on this route.'],
  // 409
  already_subscribed: [409, 'The account already has this subscription.'],
  brand_asset_account_limit_reached: [409, 'The account holds the maximum number or size of asset files.'],
  brand_asset_limit_reached: [409, 'The brand kit holds the maximum number of assets.'],
  brand_kit_conflict: [409, 'The brand kit cannot be changed in its current state.'],
  brand_kit_limit: [409, 'The account holds the maximum number of brand kits for its plan.'],
  brand_kit_unavailable: [409, 'The brand kit is archived or unavailable.'],
  checkout_superseded: [409, 'A newer checkout replaced this one.'],
  email_already_set: [409, 'The account already has an email address.'],
  idempotency_conflict: [409, 'The Idempotency-Key was already used for a different request.'],
  image_asset_limit: [409, 'The account already holds the most asset files allowed (100 files, 100 MiB in all).'],
  job_not_finished: [409, 'The job is still queued or running.'],
  key_limit_reached: [409, 'The account already holds ten active API keys.'],
  operation_conflict: [409, 'The operation conflicts with the current state.'],
  operation_pending: [409, 'An earlier operation is still pending.'],
  template_version_changed: [409, 'The selected template version changed. Retry the request.'],
  webhook_limit_reached: [409, 'The account already holds ten webhook destinations.'],
  ai_failure_limit_reached: [409, 'Too many AI failures in a row for this work.'],
  // 413
  request_too_large: [413, 'The request body is too large.'],
  brand_asset_too_large: [413, 'The asset file is larger than 10 MiB.'],
  image_asset_too_large: [413, 'The image file is larger than 10 MiB.'],
  // 415
  unsupported_media_type: [415, 'The body must be JSON sent with Content-Type: application/json.'],
  brand_asset_type_unsupported: [415, 'The asset type is not supported. Send image/png, image/jpeg, image/webp (logos) or font/woff2 (fonts).'],
  // 422
  invalid_email: [422, 'The email address is not valid.'],
  brand_asset_invalid: [422, 'The asset file is not valid.'],
  brand_asset_kind_invalid: [422, 'A replacement must be of the same kind (logo or font) as the asset it replaces.'],
  brand_asset_kind_mismatch: [422, 'The file is not of the kind its Content-Type declares (a font sent as an image, or an image sent as a font).'],
  brand_font_glyphs_exceeded: [422, 'The font has too many glyphs.'],
  brand_font_tables_invalid: [422, 'The font tables are not valid.'],
  brand_image_animated: [422, 'Animated images are not supported.'],
  brand_image_dimensions_invalid: [422, 'The image dimensions are not allowed.'],
  brand_image_pixels_exceeded: [422, 'The image has too many pixels.'],
  brand_kit_colours_invalid: [422, 'The colours are not valid.'],
  brand_kit_name_invalid: [422, 'The brand kit name is not valid.'],
  brand_kit_tone_invalid: [422, 'The tone guidance is not valid.'],
  generated_template_invalid: [422, 'The generated template is not valid.'],
  // 422, not 415: the contract's image upload route lists no 415 (the body is not JSON; its type is judged with the bytes)
  image_asset_type_unsupported: [422, 'The image type is not supported. Send PNG, JPEG or WebP bytes with a matching Content-Type.'],
  image_asset_invalid: [422, 'The image is not accepted: it must be a still, undamaged PNG, JPEG or WebP of the declared type, at most 7680x4320 as displayed, 32 million pixels and 64 MiB decoded. See details for the reason.'],
  image_url_unavailable: [422, 'The image at that URL could not be read (unreachable, an error status, too many redirects or over 15 seconds). See details for the reason.'],
  // 429
  rate_limited: [429, 'Too many requests. Retry after the indicated delay.'],
  account_concurrency_limited: [429, 'The account has too many jobs in progress. Retry after the indicated delay.'],
  key_concurrency_limited: [429, 'This API key has too many jobs in progress. Retry after the indicated delay.'],
  operation_limit_exceeded: [429, 'Too many operations. Retry after the indicated delay.'],
  playground_session_limited: [429, 'Too many playground requests. Retry after the indicated delay.'],
  testimonial_rate_limited: [429, 'Too many testimonials. Retry after the indicated delay.'],
  // 431
  request_headers_too_large: [431, 'The request headers are too many or too large.'],
  // 500
  internal_error: [500, 'An internal error occurred.'],
  // 503
  overloaded: [503, 'The service is at capacity. Retry shortly.'],
  auth_unavailable: [503, 'Email delivery is not configured.'],
  billing_unavailable: [503, 'Billing is unavailable right now.'],
  image_asset_unavailable: [503, 'Image storage is unavailable right now.'],
  no_billing_customer: [409, 'The account has no billing customer yet.'],
  overage_unavailable: [402, 'Overage is not available on this plan.'],
  playground_busy: [503, 'The playground is busy. Retry shortly.'],
  playground_unavailable: [503, 'The playground is unavailable right now.'],
  provider_unavailable: [503, 'The AI provider is unavailable right now.'],
  render_probe_busy: [503, 'The render probe is busy.'],
  render_probe_failed: [502, 'The render probe failed.'],
  render_probe_not_configured: [503, 'The render probe is not configured.'],
  render_probe_required: [409, 'A render probe is required first.'],
  render_probe_timeout: [504, 'The render probe timed out.'],
  resize_timeout: [504, 'Adapting the template took too long.'],
  testimonial_busy: [503, 'Testimonials are busy. Retry shortly.'],
  testimonial_unavailable: [503, 'Testimonials are unavailable right now.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof table;

export interface ErrorDefinition {
  status: number;
  message: string;
}

export const errorCodes = Object.keys(table) as ErrorCode[];

/** Codes only the internal GraphQL API answers with; the REST contract's error enum leaves them out. */
export const graphqlOnlyErrorCodes: readonly ErrorCode[] = ['query_too_complex', 'introspection_disabled'];

/** The codes a /v1 answer can carry: the error enum of the OpenAPI document. */
export const restErrorCodes = errorCodes.filter((code) => !graphqlOnlyErrorCodes.includes(code));

/**
 * template_missing_data's message naming the variable and its line. The name is the
 * template's own identifier path as the sandbox read it from the source (letters, digits, _,
 * $, dots and whole-number indexes, at most 100 characters: it holds no markup and no data
 * value), shown back to the account that wrote it. Without a name, the table's message. `fix`
 * is the sandbox's one-line fix (@svc/templating's TemplateError.fix: fixed words, that name and
 * built-in filter names).
 */
export function missingDataMessage(variable: string | undefined, line: number | undefined, fix?: string): string {
  const lead = variable ? `The template uses ${variable}${line ? ` on line ${line}` : ''}, which the data does not define.` : table.template_missing_data[1];
  return `${lead} ${fix ?? 'Add it to the data, or give it a default.'}`;
}

export function errorDefinition(code: ErrorCode): ErrorDefinition {
  const [status, message] = table[code];
  return { status, message };
}
