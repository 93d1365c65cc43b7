// The one image check of the service: uploads, URL previews and brand-kit logos all
// run it, and each maps the reason of a refusal to its own error code. The rules are applied
// here; the bytes are decoded by libvips in the sandbox (decode-image-sandboxed.ts), never in
// the web process.
import { refuseWithoutSandbox } from '../shared/upload-sandbox.ts';
import { type ImageDecoder, openImageDecoder } from './decode-image-sandboxed.ts';

export const imageMediaTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageMediaType = (typeof imageMediaTypes)[number];

/** The contract's limits, "Image assets and brand kits". */
export const imageLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxWidth: 7680,
  maxHeight: 4320,
  maxPixels: 32_000_000,
  maxDecodedBytes: 64 * 1024 * 1024,
} as const;

/**
 * Why an image was refused. Stable words: callers map them to their codes (image_asset_*,
 * brand_image_*) and put them in the field path of the refusal's details.
 */
export type ImageRefusal =
  | 'empty'
  | 'too_large'
  | 'type_unsupported'
  | 'type_mismatch'
  | 'animated'
  | 'dimensions_exceeded'
  | 'pixels_exceeded'
  | 'decoded_size_exceeded'
  | 'corrupt';

export interface VerifiedImage {
  mediaType: ImageMediaType;
  /** As displayed, after EXIF orientation. */
  width: number;
  height: number;
}

export type ImageVerdict = { ok: true; image: VerifiedImage } | { ok: false; refusal: ImageRefusal };

/** The media type part of a Content-Type header, lower case, without parameters; null when absent. */
export function mediaTypeOf(contentType: string | null | undefined): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

export function isImageMediaType(type: string | null): type is ImageMediaType {
  return (imageMediaTypes as readonly (string | null)[]).includes(type);
}

type Sniffed = ImageMediaType | 'image/gif' | null;

/** What the bytes are, by their magic numbers; never by what the sender says. */
export function sniffImageType(bytes: Uint8Array): Sniffed {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  return null;
}

/**
 * An animated PNG declares its animation in an acTL chunk before the first IDAT. libvips
 * reads such a file as its still default image, so the chunk is looked for here.
 */
export function isAnimatedPng(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 8 <= b.length) {
    const length = b.readUInt32BE(offset);
    const type = b.toString('latin1', offset + 4, offset + 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

/**
 * Checks bytes against the image rules, in order: present, at most 10 MiB, a declared type of
 * PNG, JPEG or WebP (null: take the sniffed type), still (no frames, no APNG), bytes of the
 * declared type, at most 7680 wide and 4320 high as displayed, at most 32 million pixels and
 * 64 MiB decoded (width x height x channels x bytes per sample), and fully decodable.
 */
export async function verifyImage(bytes: Uint8Array, declared: string | null): Promise<ImageVerdict> {
  const refuse = (refusal: ImageRefusal): ImageVerdict => ({ ok: false, refusal });
  if (bytes.byteLength === 0) return refuse('empty');
  if (bytes.byteLength > imageLimits.maxBytes) return refuse('too_large');
  if (declared !== null && !isImageMediaType(declared)) return refuse('type_unsupported');
  const sniffed = sniffImageType(bytes);
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = await openImageDecoder(input, imageLimits.maxPixels).catch(refuseWithoutSandbox);
  try {
    const verdict = await judge(decoder, bytes, declared, sniffed);
    return verdict ?? { ok: false, refusal: 'corrupt' };
  } finally {
    decoder.close();
  }
}

/** The rules, in order, on what the decoder reports; null when the image is not fully decodable. */
async function judge(decoder: ImageDecoder, bytes: Uint8Array, declared: string | null, sniffed: Sniffed): Promise<ImageVerdict | null> {
  const refuse = (refusal: ImageRefusal): ImageVerdict => ({ ok: false, refusal });
  // the size limits are checked on the header, before any pixel is decoded
  const metadata = decoder.header;
  if (!metadata) return refuse(sniffed ? 'corrupt' : declared ? 'type_mismatch' : 'type_unsupported');
  // an animation is refused as such, whatever it was declared as
  if (metadata.pages > 1 || (sniffed === 'image/png' && isAnimatedPng(bytes))) return refuse('animated');
  const mediaType = declared ?? sniffed;
  if (!isImageMediaType(mediaType)) return refuse('type_unsupported');
  if (sniffed !== mediaType || `image/${metadata.format}` !== mediaType) return refuse('type_mismatch');

  const { width, height } = metadata.autoOrient ?? metadata;
  if (width > imageLimits.maxWidth || height > imageLimits.maxHeight) return refuse('dimensions_exceeded');
  if (width * height > imageLimits.maxPixels) return refuse('pixels_exceeded');
  const bytesPerSample = metadata.depth === 'ushort' || metadata.depth === 'short' ? 2 : metadata.depth === 'float' || metadata.depth === 'uint' || metadata.depth === 'int' ? 4 : 1;
  if (width * height * metadata.channels * bytesPerSample > imageLimits.maxDecodedBytes) return refuse('decoded_size_exceeded');

  // every pixel once, failing on truncation and decoder warnings
  if (!(await decoder.decode())) return null;
  return { ok: true, image: { mediaType, width, height } };
}
