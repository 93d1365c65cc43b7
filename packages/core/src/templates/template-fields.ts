import { idPattern, templateIdPrefix } from '@svc/contracts';
import { Prisma } from '@svc/db';
import { notFound } from '../shared/errors.ts';

/** Names are trimmed; null or blank means no name. */
export function normalizeName(name: string | null): string | null {
  const trimmed = name?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Tags are trimmed, case preserved, in the order given (uniqueness is checked by the contract). */
export function normalizeTags(tags: string[]): string[] {
  return tags.map((tag) => tag.trim());
}

/** A path id that cannot name a template answers the same 404 as a foreign one. */
export function checkTemplateId(templateId: string): void {
  if (!idPattern(templateIdPrefix).test(templateId)) throw notFound();
}

/** A path version: a positive integer that fits the column; anything else is not found. */
export function parseVersionNumber(text: string): number {
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) throw notFound();
  return Number(text);
}

/** The schema column: SQL NULL when the version has none. */
export function schemaColumn(schema: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return schema === null || schema === undefined ? Prisma.DbNull : (schema as Prisma.InputJsonValue);
}
