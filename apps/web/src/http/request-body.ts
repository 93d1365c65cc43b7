import { checkTextIntegrity } from '@svc/contracts';
import { DomainError } from '@svc/core';

/** A JSON route accepts application/json, with or without parameters such as charset. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * Reads a JSON body of at most maxBytes: 415 for another content type, 413 past the
 * limit (decided from Content-Length when present, else while streaming), 400
 * malformed JSON for text that does not parse or is not UTF-8, and 400 invalid value on
 * the first string or key holding U+0000 or a lone surrogate (text-integrity.ts).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) throw new DomainError('unsupported_media_type');
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new DomainError('request_too_large');
  const bytes = await readLimitedBytes(request, maxBytes, () => new DomainError('request_too_large'));
  let body: unknown;
  try {
    // fatal: bytes that are not UTF-8 would otherwise become U+FFFD without a word
    body = JSON.parse(strictUtf8.decode(bytes));
  } catch {
    throw new DomainError('invalid_request', { details: [{ field: '', reason: 'malformed JSON' }] });
  }
  checkTextIntegrity(body, (detail) => new DomainError('invalid_request', { details: [detail] }));
  return body;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface RawUpload {
  bytes: Uint8Array;
  /** The declared media type (Content-Type without parameters, lower case), null when none. */
  mediaType: string | null;
}

/** Reads a raw-bytes body of at most maxBytes; past it, `tooLarge` (decided from Content-Length when present). */
export async function readRawBody(request: Request, maxBytes: number, tooLarge: () => Error): Promise<RawUpload> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  return { bytes: await readLimitedBytes(request, maxBytes, tooLarge), mediaType: type ? type : null };
}

async function readLimitedBytes(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
