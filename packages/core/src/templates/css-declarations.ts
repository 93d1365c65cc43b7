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

/** A plain pixel length ("12px", "12.5px"), or undefined for anything else (templated, %, em ...). */
export function pixels(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^(-?\d+(?:\.\d+)?)px$/i.exec(value.trim());
  return match ? Number(match[1]) : undefined;
}

/** Rounds to at most two decimals, so adapted sources stay readable and deterministic. */
export function px(value: number): string {
  return `${Math.round(value * 100) / 100}px`;
}

/** Scales every plain pixel length in a value ("4px 8px", "0 0 12px #000"); other text stays. */
export function scalePixels(value: string, factor: number): string {
  return value.replace(/(^|[\s(,])(-?\d+(?:\.\d+)?)px\b/gi, (_, lead: string, number: string) => `${lead}${px(Number(number) * factor)}`);
}
