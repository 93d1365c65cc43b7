import { DomainError } from './errors.ts';

/** Position in a newest-first list: the last item's creation time and id. */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

/** Opaque cursor text: base64url of "<epoch ms>.<id>". */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt.getTime()}.${position.id}`).toString('base64url');
}

/** Reads a cursor made by encodeCursor; anything else answers 400 invalid_cursor. */
export function decodeCursor(cursor: string, idPattern: RegExp): KeysetPosition {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^(\d{1,15})\.(.+)$/.exec(text);
  if (!match || !idPattern.test(match[2] ?? '')) throw new DomainError('invalid_cursor');
  const createdAt = new Date(Number(match[1]));
  if (Number.isNaN(createdAt.getTime())) throw new DomainError('invalid_cursor');
  return { createdAt, id: match[2] as string };
}
