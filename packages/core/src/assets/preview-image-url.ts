import type { FieldDetail } from '@svc/contracts';
import { type Principal, principalSubject } from '../auth/principal.ts';
import { egressRequest } from '../egress/egress-request.ts';
import { imageUrlEgressRules } from '../egress/outgoing-url-policy.ts';
import { takeRateToken } from '../limits/rate-limit.ts';
import type { ServiceContext } from '../shared/context.ts';
import { DomainError } from '../shared/errors.ts';
import { imageAssetError } from './image-refusals.ts';
import { imageLimits, type ImageMediaType, mediaTypeOf, verifyImage } from './verify-image.ts';

/** The contract's limits: at most five redirects and 15 seconds in all. */
export const imageUrlPreviewLimits = { maxRedirects: 5, timeoutMs: 15_000 } as const;
/** Names the image types the upload rules accept, so a server that negotiates sends one of them. */
const imageUrlRequestHeaders = { accept: 'image/png, image/jpeg, image/webp', 'user-agent': 'svc-image-preview/1' };

export interface PreviewImageUrlOptions {
  principal: Principal;
  url: string;
  /** The whole fetch; tests pass a shorter one. Default 15 s. */
  timeoutMs?: number;
}

export interface PreviewedImage {
  bytes: Buffer;
  mediaType: ImageMediaType;
}

/**
 * Reads a public image by URL (the contract's image asset routes) and answers its verified bytes: nothing is stored or
 * charged. The URL (and every redirect) must pass the egress policy, else 400 image_url_invalid
 * with the policy code in the field path; a fetch that fails answers 422 image_url_unavailable;
 * what was fetched is then checked with the upload rules and their codes.
 */
export async function previewImageUrl(ctx: ServiceContext, options: PreviewImageUrlOptions): Promise<PreviewedImage> {
  await takeRateToken(ctx.db, 'image_url_preview', principalSubject(options.principal), ctx.clock());
  const fetched = await egressRequest(options.url, {
    policy: { allowlist: ctx.config.egressAllowlist },
    rules: imageUrlEgressRules,
    method: 'GET',
    headers: imageUrlRequestHeaders,
    timeoutMs: options.timeoutMs ?? imageUrlPreviewLimits.timeoutMs,
    maxBytes: imageLimits.maxBytes,
    answer: { read: 'body', maxRedirects: imageUrlPreviewLimits.maxRedirects },
  });
  if (!fetched.ok) {
    if ('refusal' in fetched) {
      const details: FieldDetail[] = [{ field: `url.${fetched.refusal}`, reason: 'invalid value' }];
      throw new DomainError('image_url_invalid', { details });
    }
    if (fetched.failure === 'response_too_large') throw imageAssetError('too_large', 'url');
    throw new DomainError('image_url_unavailable', { details: [{ field: `url.${fetched.failure}`, reason: 'invalid value' }] });
  }
  // servers that do not name a type (or call everything octet-stream) are judged by the bytes
  const declared = mediaTypeOf(fetched.contentType);
  const verdict = await verifyImage(fetched.bytes, declared === 'application/octet-stream' ? null : declared);
  if (!verdict.ok) throw imageAssetError(verdict.refusal, 'url');
  return { bytes: fetched.bytes, mediaType: verdict.image.mediaType };
}
