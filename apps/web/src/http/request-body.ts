import { checkTextIntegrity } from '@svc/contracts';
import { DomainError } from '@svc/core';
import type { ApiRequest } from './api-request.ts';

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
export async function readJsonBody(request: ApiRequest, maxBytes: number): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) throw new DomainError('unsupported_media_type');
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new DomainError('request_too_large');
  const bytes = await request.body(maxBytes, () => new DomainError('request_too_large'));
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
export async function readRawBody(request: ApiRequest, maxBytes: number, tooLarge: () => Error): Promise<RawUpload> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  return { bytes: await request.body(maxBytes, tooLarge), mediaType: type ? type : null };
}
