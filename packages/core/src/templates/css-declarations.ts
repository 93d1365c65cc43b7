// Inline style text as an ordered list of declarations, split at top-level semicolons (a
// semicolon inside parentheses or quotes, as in url(data:...;base64,...), does not split).

export interface Declaration {
  property: string;
  value: string;
}

export function parseDeclarations(style: string): Declaration[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let index = 0; index < style.length; index += 1) {
    const char = style[index];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ';' && depth === 0) {
      parts.push(style.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(style.slice(start));
  return parts.flatMap((part) => {
    const colon = part.indexOf(':');
    if (colon === -1) return [];
    const property = part.slice(0, colon).trim().toLowerCase();
    return property ? [{ property, value: part.slice(colon + 1).trim() }] : [];
  });
}

export function serializeDeclarations(declarations: readonly Declaration[]): string {
  return declarations.map(({ property, value }) => `${property}: ${value}`).join('; ');
}
