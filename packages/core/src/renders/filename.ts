/** Download names: the caller's filename, else a safe name from the template name or "html-render" and the UTC date. */
export function defaultFilename(createdAt: Date, templateName?: string | null): string {
  const date = createdAt.toISOString().slice(0, 10);
  const base = templateName ? safeName(templateName) : '';
  return `${base || 'html-render'}-${date}`;
}

/** Reduces free text to the render request's filename rules (letters, digits, space, dot, underscore, hyphen). */
export function safeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100)
    .trim();
}

export const extensionOf: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};
