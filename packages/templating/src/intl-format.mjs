// Locale formatting for templates, on the host's ICU (Node's Intl), for the VM that has none.
// Plain JavaScript: the sandbox worker imports it (see sandbox-worker.mjs). Every function here
// is pure: primitives in, a string out, no I/O and no clock. Whatever reaches it comes from
// template code and is checked again here, whatever the guest's filters checked before.
//
// format(kind, value, locale, timeZone, optionsJson) answers
//   { ok: true, text, key }  the formatted text and the formatter it used (for the work charge)
//   { ok: false }            the input, a locale, currency, zone or option is not acceptable
// The formatters are cached by (kind, locale, zone, options): a formatter holds those alone,
// never a value it formatted.

const MAX_LOCALE_CHARS = 35;
const MAX_TIME_ZONE_CHARS = 64;
const MAX_OPTIONS_CHARS = 512;
const MAX_DECIMAL_CHARS = 64;
const MAX_DATE_CHARS = 40;
const MAX_PATTERN_CHARS = 32;
/** Formatters kept across evaluations, least recently used first. */
export const FORMATTER_CACHE_ENTRIES = 256;

const localePattern = /^[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const timeZonePattern = /^[A-Za-z0-9_+\-/]+$/;
const currencyPattern = /^[A-Z]{3}$/;
// A plain decimal (money as a string keeps every digit): -1234.5, 0.125, 12345678901234567890.
const decimalPattern = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
// ISO 8601 calendar date, optionally with a time and an offset.
const isoPattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const MAX_EPOCH_MS = 8.64e15;

const currencies = new Set(Intl.supportedValuesOf('currency'));
const styles = new Set(['short', 'medium', 'long', 'full']);
const relativeUnits = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

const digits = (low, high) => (value) => Number.isInteger(value) && value >= low && value <= high;
const oneOf = (...choices) => (value) => typeof value === 'string' && choices.includes(value);
const isBoolean = (value) => typeof value === 'boolean';

const numberOptions = {
  minimumFractionDigits: digits(0, 20),
  maximumFractionDigits: digits(0, 20),
  minimumIntegerDigits: digits(1, 21),
  useGrouping: isBoolean,
  signDisplay: oneOf('auto', 'always', 'exceptZero', 'negative', 'never'),
};
/** Options each kind accepts, with their checks; template names map to Intl's where they differ. */
const optionRules = {
  number: { ...numberOptions, notation: oneOf('standard', 'scientific', 'engineering', 'compact') },
  percent: numberOptions,
  currency: {
    ...numberOptions,
    currency: (value) => typeof value === 'string' && currencyPattern.test(value) && currencies.has(value),
    display: oneOf('symbol', 'narrowSymbol', 'code', 'name'),
    sign: oneOf('standard', 'accounting'),
  },
  date: { format: (value) => typeof value === 'string' && value.length <= MAX_PATTERN_CHARS },
  time: { format: (value) => typeof value === 'string' && styles.has(value) },
  datetime: { format: (value) => typeof value === 'string' && styles.has(value) },
  relative: {
    unit: oneOf(...relativeUnits),
    numeric: oneOf('always', 'auto'),
    style: oneOf('long', 'short', 'narrow'),
    now: (value) => typeof value === 'number' || (typeof value === 'string' && value.length <= MAX_DATE_CHARS),
  },
};

// Date fields of a pattern: a CLDR skeleton (the fields wanted, in any order; the locale decides
// order, separators and the 12- or 24-hour clock unless h or H says). Letter runs -> Intl options.
const skeletonFields = {
  G: (n) => ({ era: n <= 3 ? 'short' : n === 4 ? 'long' : 'narrow' }),
  y: (n) => ({ year: n === 2 ? '2-digit' : 'numeric' }),
  M: (n) => ({ month: ['numeric', '2-digit', 'short', 'long', 'narrow'][Math.min(n, 5) - 1] }),
  L: (n) => ({ month: ['numeric', '2-digit', 'short', 'long', 'narrow'][Math.min(n, 5) - 1] }),
  d: (n) => ({ day: n === 2 ? '2-digit' : 'numeric' }),
  E: (n) => ({ weekday: n <= 3 ? 'short' : n === 4 ? 'long' : 'narrow' }),
  h: (n) => ({ hour: n === 2 ? '2-digit' : 'numeric', hourCycle: 'h12' }),
  H: (n) => ({ hour: n === 2 ? '2-digit' : 'numeric', hourCycle: 'h23' }),
  j: (n) => ({ hour: n === 2 ? '2-digit' : 'numeric' }),
  m: (n) => ({ minute: n === 2 ? '2-digit' : 'numeric' }),
  s: (n) => ({ second: n === 2 ? '2-digit' : 'numeric' }),
  S: (n) => ({ fractionalSecondDigits: Math.min(n, 3) }),
  z: (n) => ({ timeZoneName: n <= 3 ? 'short' : 'long' }),
  O: (n) => ({ timeZoneName: n <= 3 ? 'shortOffset' : 'longOffset' }),
  v: (n) => ({ timeZoneName: n <= 3 ? 'shortGeneric' : 'longGeneric' }),
};

/** @param {string} pattern @returns {Intl.DateTimeFormatOptions | null} */
function skeletonOptions(pattern) {
  if (!/^[A-Za-z]+$/.test(pattern)) return null;
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const [run, letter] of pattern.matchAll(/([A-Za-z])\1*/g)) {
    const field = skeletonFields[letter];
    if (field === undefined || run.length > 5) return null;
    const added = field(run.length);
    for (const name of Object.keys(added)) {
      // one letter per field: "yyMMy" is not a pattern
      if (name in options) return null;
      options[name] = added[name];
    }
  }
  return options;
}

/** Least recently used first. @type {Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>} */
const formatters = new Map();

/** @template T @param {string} key @param {() => T} build @returns {T} */
function formatter(key, build) {
  const found = formatters.get(key);
  if (found !== undefined) {
    formatters.delete(key);
    formatters.set(key, found);
    return /** @type {T} */ (found);
  }
  const built = build();
  formatters.set(key, built);
  if (formatters.size > FORMATTER_CACHE_ENTRIES) formatters.delete(formatters.keys().next().value);
  return built;
}

/** What the cache holds, for tests: its keys and the kind of object each holds. */
export function formatterCacheSnapshot() {
  return [...formatters].map(([key, value]) => ({ key, type: Object.prototype.toString.call(value) }));
}

/** Locale tags and zone names already checked, with their canonical form (null: refused). @type {Map<string, string | null>} */
const checked = new Map();

/** @param {string} key @param {() => string | null} check */
function memo(key, check) {
  let answer = checked.get(key);
  if (answer === undefined) {
    answer = check();
    if (checked.size >= FORMATTER_CACHE_ENTRIES) checked.clear();
    checked.set(key, answer);
  }
  return answer;
}

/** @param {unknown} locale */
function checkedLocale(locale) {
  if (typeof locale !== 'string' || locale.length > MAX_LOCALE_CHARS || !localePattern.test(locale)) return null;
  return memo(`locale\n${locale}`, () => canonicalLocale(locale));
}

/** @param {string} locale */
function canonicalLocale(locale) {
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    // A locale ICU has no data for would silently become the host's default: refused instead.
    return Intl.NumberFormat.supportedLocalesOf([canonical]).length === 1 ? canonical : null;
  } catch {
    return null;
  }
}

/** @param {unknown} zone */
function checkedTimeZone(zone) {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > MAX_TIME_ZONE_CHARS || !timeZonePattern.test(zone)) return null;
  return memo(`zone\n${zone}`, () => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      return null;
    }
  });
}

/** @param {string} kind @param {unknown} json @returns {Record<string, unknown> | null} */
function checkedOptions(kind, json) {
  if (typeof json !== 'string' || json.length > MAX_OPTIONS_CHARS) return null;
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const rules = optionRules[kind];
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const name of Object.keys(parsed)) {
    if (!Object.hasOwn(rules, name) || !rules[name](parsed[name])) return null;
    options[name] = parsed[name];
  }
  return options;
}

/** An amount: a finite number, or a decimal string formatted digit for digit. @param {unknown} value */
function checkedAmount(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text.length <= MAX_DECIMAL_CHARS && decimalPattern.test(text) ? text : null;
}

/**
 * An instant from epoch milliseconds or an ISO 8601 string. A string without an offset (a bare
 * date, or a date and time) is a floating time: shown as written, in no zone.
 * @param {unknown} value @returns {{ ms: number, floating: boolean } | null}
 */
export function parseInstant(value) {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= MAX_EPOCH_MS ? { ms: value, floating: false } : null;
  if (typeof value !== 'string' || value.length > MAX_DATE_CHARS) return null;
  const match = isoPattern.exec(value);
  if (match === null) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', offset] = match;
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)];
  const ms = Date.UTC(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], Number(fraction.slice(0, 3).padEnd(3, '0')));
  const check = new Date(ms);
  // Date.UTC rolls 2026-02-30 over into March: such a date is refused, not moved.
  if (check.getUTCFullYear() !== fields[0] || check.getUTCMonth() !== fields[1] || check.getUTCDate() !== fields[2] || check.getUTCHours() !== fields[3] || check.getUTCMinutes() !== fields[4] || check.getUTCSeconds() !== fields[5]) {
    // 00:00 to 23:59:59 only; 24:00 is refused too
    return null;
  }
  if (offset === undefined) return { ms, floating: true };
  if (offset === 'Z') return { ms, floating: false };
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours, minutes] = [Number(offset.slice(1, 3)), Number(offset.slice(-2))];
  if (hours > 23 || minutes > 59) return null;
  return { ms: ms - sign * (hours * 60 + minutes) * 60_000, floating: false };
}

const unitMs = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
  month: 2_629_746_000,
  quarter: 7_889_238_000,
  year: 31_556_952_000,
};

/** The unit a difference reads best in, when the template names none. @param {number} ms */
function bestUnit(ms) {
  const size = Math.abs(ms);
  if (size < unitMs.minute) return 'second';
  if (size < unitMs.hour) return 'minute';
  if (size < unitMs.day) return 'hour';
  if (size < unitMs.week) return 'day';
  if (size < unitMs.month) return 'week';
  if (size < unitMs.year) return 'month';
  return 'year';
}

/**
 * @param {string} kind number | percent | currency | date | time | datetime | relative
 * @param {unknown} value
 * @param {unknown} locale
 * @param {unknown} timeZone
 * @param {unknown} optionsJson
 * @returns {{ ok: true, text: string, key: string } | { ok: false }}
 */
export function format(kind, value, locale, timeZone, optionsJson) {
  if (typeof kind !== 'string' || !Object.hasOwn(optionRules, kind)) return { ok: false };
  const tag = checkedLocale(locale);
  const options = checkedOptions(kind, optionsJson);
  if (tag === null || options === null) return { ok: false };
  try {
    switch (kind) {
      case 'number':
      case 'percent':
      case 'currency':
        return formatAmount(kind, value, tag, options);
      case 'relative':
        return formatRelative(value, tag, options);
      default:
        return formatDate(kind, value, tag, timeZone, options);
    }
  } catch (error) {
    // Intl refuses option combinations itself (minimum above maximum fraction digits)
    if (error instanceof RangeError || error instanceof TypeError) return { ok: false };
    throw error;
  }
}

/** @param {'number' | 'percent' | 'currency'} kind @param {unknown} value @param {string} tag @param {Record<string, unknown>} options */
function formatAmount(kind, value, tag, options) {
  const amount = checkedAmount(value);
  if (amount === null) return { ok: false };
  if (kind === 'currency' && options.currency === undefined) return { ok: false };
  // percent of a decimal string: Intl multiplies by 100 exactly
  const { display, sign, ...rest } = options;
  /** @type {Intl.NumberFormatOptions} */
  const intlOptions = { ...rest, style: kind === 'number' ? 'decimal' : kind };
  if (display !== undefined) intlOptions.currencyDisplay = /** @type {Intl.NumberFormatOptions['currencyDisplay']} */ (display);
  if (sign !== undefined) intlOptions.currencySign = /** @type {Intl.NumberFormatOptions['currencySign']} */ (sign);
  const key = `${kind}\n${tag}\n${JSON.stringify(intlOptions)}`;
  const numberFormat = formatter(key, () => new Intl.NumberFormat(tag, intlOptions));
  return { ok: true, text: numberFormat.format(/** @type {number} */ (amount)), key };
}

/** @param {string} kind @param {unknown} value @param {string} tag @param {unknown} timeZone @param {Record<string, unknown>} options */
function formatDate(kind, value, tag, timeZone, options) {
  const instant = parseInstant(value);
  const zone = checkedTimeZone(timeZone);
  if (instant === null || zone === null) return { ok: false };
  const style = typeof options.format === 'string' ? options.format : 'medium';
  /** @type {Intl.DateTimeFormatOptions | null} */
  let intlOptions;
  if (kind === 'date') intlOptions = styles.has(style) ? { dateStyle: style } : skeletonOptions(style);
  else if (kind === 'time') intlOptions = { timeStyle: style };
  else intlOptions = { dateStyle: style, timeStyle: style };
  if (intlOptions === null) return { ok: false };
  // a floating time is shown as written: its fields were read as UTC
  intlOptions.timeZone = instant.floating ? 'UTC' : zone;
  const key = `${kind}\n${tag}\n${JSON.stringify(intlOptions)}`;
  const dateFormat = formatter(key, () => new Intl.DateTimeFormat(tag, intlOptions));
  return { ok: true, text: dateFormat.format(instant.ms), key };
}

/** @param {unknown} value @param {string} tag @param {Record<string, unknown>} options */
function formatRelative(value, tag, options) {
  let amount;
  let unit = /** @type {string | undefined} */ (options.unit);
  if (options.now === undefined) {
    // a count of units: -3 | relative("day")
    if (typeof value !== 'number' || !Number.isFinite(value) || unit === undefined) return { ok: false };
    amount = value;
  } else {
    // an instant against the "now" the template was given (never the clock)
    const then = parseInstant(value);
    const now = parseInstant(options.now);
    if (then === null || now === null) return { ok: false };
    const difference = then.ms - now.ms;
    unit ??= bestUnit(difference);
    // + 0: no "-0 days"
    amount = Math.round(difference / unitMs[unit]) + 0;
  }
  /** @type {Intl.RelativeTimeFormatOptions} */
  const intlOptions = { numeric: /** @type {'always' | 'auto'} */ (options.numeric ?? 'auto'), style: /** @type {'long' | 'short' | 'narrow'} */ (options.style ?? 'long') };
  const key = `relative\n${tag}\n${JSON.stringify(intlOptions)}`;
  const relativeFormat = formatter(key, () => new Intl.RelativeTimeFormat(tag, intlOptions));
  return { ok: true, text: relativeFormat.format(amount, /** @type {Intl.RelativeTimeFormatUnit} */ (unit)), key };
}
