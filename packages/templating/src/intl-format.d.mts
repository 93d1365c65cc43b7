// Types of intl-format.mjs (plain JavaScript, so that the sandbox worker loads it directly).

/** Formatters kept across evaluations in one worker thread. */
export declare const FORMATTER_CACHE_ENTRIES: number;

/**
 * Formats one value with the host's Intl. Every argument is checked: a refused locale,
 * currency, zone, option or value answers { ok: false }.
 */
export declare function format(
  kind: unknown,
  value: unknown,
  locale: unknown,
  timeZone: unknown,
  optionsJson: unknown,
): { ok: true; text: string; key: string } | { ok: false };

/** An instant from epoch milliseconds or ISO 8601; floating when the string has no offset. */
export declare function parseInstant(value: unknown): { ms: number; floating: boolean } | null;

/** What the formatter cache holds: its keys and the kind of object each holds. */
export declare function formatterCacheSnapshot(): { key: string; type: string }[];
