// The formatting filters (number, percent, currency, date, time, datetime, relative) answer what
// the host's own Intl answers for the same locale, zone and options, refuse bad input at the
// filter, and are charged to the work budget.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateTemplate, warmTemplateSandbox } from '../src/index.ts';
import { FORMATTER_CACHE_ENTRIES, format, formatterCacheSnapshot } from '../src/intl-format.mjs';
import { expectRefused, render } from './template-support.ts';

beforeAll(async () => {
  warmTemplateSandbox();
  await render('warm');
});

/** What autoescaping makes of a text (de-CH groups digits with an apostrophe). */
const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

const locales = ['en-US', 'de-DE', 'de-CH', 'fr-FR', 'ar-EG', 'hi-IN', 'ja-JP', 'zh-CN', 'es-ES', 'pt-BR', 'ru-RU', 'he-IL'];
// 2026-12-02 03:30 UTC: still 1 December in New York, already 09:00 in Kolkata
const instant = Date.UTC(2026, 11, 2, 3, 30);
const iso = '2026-12-02T03:30:00Z';

describe('every locale as Intl formats it', () => {
  it.each(locales)('%s', async (locale) => {
    const source = [
      '{{ n | number(loc) }}',
      '{{ n | number(loc, maximumFractionDigits=1) }}',
      '{{ p | percent(loc) }}',
      '{{ amount | currency("EUR", loc) }}',
      '{{ amount | currency("JPY", locale=loc) }}',
      '{{ at | date("long", loc) }}',
      '{{ at | date("yMMMEd", locale=loc, timeZone="America/New_York") }}',
      '{{ at | time("short", loc, timeZone="Asia/Kolkata") }}',
      '{{ ms | datetime("medium", locale=loc, timeZone="America/New_York") }}',
      '{{ -3 | relative("day", loc) }}',
      '{{ 1 | relative("day", loc) }}',
    ].join('|');
    const html = await render(source, { loc: locale, n: 1234567.891, p: 0.256, amount: -1234.5, at: iso, ms: instant });
    const expected = [
      new Intl.NumberFormat(locale).format(1234567.891),
      new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(1234567.891),
      new Intl.NumberFormat(locale, { style: 'percent' }).format(0.256),
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(-1234.5),
      new Intl.NumberFormat(locale, { style: 'currency', currency: 'JPY' }).format(-1234.5),
      new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(instant),
      new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', weekday: 'short', day: 'numeric', timeZone: 'America/New_York' }).format(instant),
      new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'Asia/Kolkata' }).format(instant),
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'America/New_York' }).format(instant),
      new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-3, 'day'),
      new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(1, 'day'),
    ];
    expect(html.split('|')).toEqual(expected.map(escaped));
  });

  it("keeps each locale's digits, grouping and spaces", async () => {
    expect(await render('{{ 1234567.8 | number("hi-IN") }}')).toBe('12,34,567.8');
    expect(await render('{{ 1234567.8 | number("ar-EG") }}')).toMatch(/^[\u0660-\u0669\u066b\u066c]+$/);
    expect(await render('{{ 1234567.8 | number("ar-EG-u-nu-latn") }}')).toBe(new Intl.NumberFormat('ar-EG-u-nu-latn').format(1234567.8));
    // fr-FR groups with U+202F and puts U+00A0 before the euro sign
    expect(await render('{{ 1234.5 | currency("EUR", "fr-FR") }}')).toBe('1\u202f234,50\u00a0€');
    expect(await render('{{ 1234567.8 | number("de-CH") }}')).toBe('1&#39;234&#39;567.8');
    expect(await render('{{ 0.5 | percent("fr-FR") }}')).toBe('50\u00a0%');
    // Unicode extensions are kept (33 characters; more than 35 are refused)
    expect(await render('{{ 0 | time("short", "en-US-u-ca-gregory-nu-latn-hc-h23") }}')).toBe('00:00');
  });

  it('takes arguments by position, by keyword or as an object', async () => {
    expect(await render('{{ 2.5 | number("de-DE", { maximumFractionDigits: 0 }) }}')).toBe('3');
    expect(await render('{{ 2.5 | number(options) }}', { options: { locale: 'fr-FR', minimumFractionDigits: 2 } })).toBe('2,50');
    expect(await render('{{ 2.5 | currency(currency="CHF", locale="de-CH") }}')).toBe(new Intl.NumberFormat('de-CH', { style: 'currency', currency: 'CHF' }).format(2.5));
  });

  it('formats decimal strings digit for digit', async () => {
    expect(await render('{{ "12345678901234567890.125" | number("en-US", maximumFractionDigits=3) }}')).toBe('12,345,678,901,234,567,890.125');
    expect(await render('{{ total | currency("USD") }}', { total: '0.10' })).toBe('$0.10');
  });
});

describe('currency', () => {
  it("puts the symbol where the locale puts it, with the currency's own decimals", async () => {
    const cases: [string, string][] = [
      ['{{ 1234.5 | currency("USD", "en-US") }}', '$1,234.50'],
      ['{{ 1234.5 | currency("EUR", "de-DE") }}', '1.234,50\u00a0€'],
      ['{{ 1234.5 | currency("JPY", "ja-JP") }}', '￥1,235'],
      ['{{ 1234.5 | currency("KWD", "en-US") }}', 'KWD\u00a01,234.500'],
      ['{{ 1234.5 | currency("USD", "en-US", display="code") }}', 'USD\u00a01,234.50'],
      ['{{ 2 | currency("EUR", "en-US", display="name") }}', '2.00 euros'],
      ['{{ -5 | currency("USD", "en-US", sign="accounting") }}', '($5.00)'],
      ['{{ 5 | currency("USD", "en-US", maximumFractionDigits=0) }}', '$5'],
    ];
    for (const [source, expected] of cases) expect(await render(source)).toBe(expected);
    expect(await render('{{ 99.9 | currency("ILS", "he-IL") }}')).toBe(new Intl.NumberFormat('he-IL', { style: 'currency', currency: 'ILS' }).format(99.9));
    expect(await render('{{ 99.9 | currency("EGP", "ar-EG") }}')).toBe(new Intl.NumberFormat('ar-EG', { style: 'currency', currency: 'EGP' }).format(99.9));
  });
});

describe('dates and time zones', () => {
  it('shows one instant in each zone', async () => {
    const source = '{{ at | datetime("short", timeZone="America/New_York") }} / {{ at | datetime("short", timeZone="Asia/Kolkata") }}';
    expect(await render(source, { at: instant })).toBe('12/1/26, 10:30 PM / 12/2/26, 9:00 AM');
    expect(await render(source, { at: iso })).toBe('12/1/26, 10:30 PM / 12/2/26, 9:00 AM');
    expect(await render('{{ at | time("short") }}', { at: '2026-12-02T09:00:00+05:30' })).toBe('3:30 AM');
  });

  it('reads a date or time without an offset as written, in any zone', async () => {
    expect(await render('{{ "2026-12-02" | date("long", timeZone="America/New_York") }}')).toBe('December 2, 2026');
    expect(await render('{{ "2026-12-02T23:15" | datetime("short", timeZone="Asia/Kolkata") }}')).toBe('12/2/26, 11:15 PM');
  });

  it('takes patterns as the fields wanted, laid out by the locale', async () => {
    expect(await render('{{ at | date("yMMMMd", "de-DE") }}', { at: iso })).toBe('2. Dezember 2026');
    expect(await render('{{ at | date("yMMMMd", "en-US") }}', { at: iso })).toBe('December 2, 2026');
    expect(await render('{{ at | date("EEEEHHmm", "fr-FR", timeZone="Europe/Paris") }}', { at: iso })).toBe('mercredi 04:30');
    expect(await render('{{ at | date("hmz", "en-US", timeZone="America/New_York") }}', { at: iso })).toBe('10:30 PM EST');
    expect(await render('{{ at | date }}', { at: iso })).toBe('Dec 2, 2026');
  });
});

describe('relative dates', () => {
  it('counts units, or compares with a "now" the template is given', async () => {
    expect(await render('{{ -3 | relative("day") }}')).toBe('3 days ago');
    expect(await render('{{ -1 | relative("day") }}')).toBe('yesterday');
    expect(await render('{{ -1 | relative("day", numeric="always") }}')).toBe('1 day ago');
    expect(await render('{{ 2 | relative("week", "de-DE") }}')).toBe('in 2 Wochen');
    const data = { due: '2026-12-09', today: '2026-12-02' };
    expect(await render('{{ due | relative(now=today) }}', data)).toBe('next week');
    expect(await render('{{ due | relative("day", now=today) }}', data)).toBe('in 7 days');
    expect(await render('{{ due | relative(now=today, locale="ja-JP") }}', data)).toBe('来週');
    expect(await render('{{ "2026-11-02T10:00:00Z" | relative(now=now) }}', { now: instant })).toBe('4 weeks ago');
    expect(await render('{{ "2025-10-02" | relative(now=now, locale="es-ES") }}', { now: instant })).toBe('el año pasado');
    expect(await render('{{ "2026-12-02T03:00:00Z" | relative(now=now, style="short") }}', { now: instant })).toBe('30 min. ago');
  });

  it('never reads the clock: a date without "now" is refused', async () => {
    await expectRefused('{{ "2026-12-09" | relative }}', 'template_invalid_filter_input', { line: 1, column: 19 });
    await expectRefused('{{ 3 | relative }}', 'template_invalid_filter_input', { line: 1, column: 8 });
  });
});

describe('the locale and time zone a filter uses', () => {
  const source = '{{ 1234.5 | number }} {{ at | datetime("short") }}';

  it("is the filter's argument, else the source's meta, else the data's, else en-US and UTC", async () => {
    const meta = '<meta name="svc-locale" content="de-DE"><meta name="svc-time-zone" content="Asia/Kolkata">';
    const data = { at: iso, locale: 'fr-FR', timeZone: 'America/New_York' };
    expect(await render(source, { at: iso })).toBe('1,234.5 12/2/26, 3:30 AM');
    expect(await render(source, data)).toBe('1\u202f234,5 01/12/2026 22:30');
    expect(await render(meta + source, data)).toBe(meta + '1.234,5 02.12.26, 09:00');
    expect(await render(meta + '{{ 1234.5 | number("ja-JP") }} {{ at | time("short", timeZone="UTC") }}', data)).toBe(meta + '1,234.5 03:30');
    // a data field of another type is not a locale
    expect(await render(source, { at: iso, locale: { language: 'de' } })).toBe('1,234.5 12/2/26, 3:30 AM');
  });

  it("is refused at the filter when the meta's or the data's is not one", async () => {
    await expectRefused('<meta name="svc-locale" content="xx-nowhere">\n{{ 1 | number }}', 'template_invalid_filter_input', { line: 2, column: 8 });
    await expectRefused('{{ at | date }}', 'template_invalid_filter_input', { data: { at: iso, timeZone: 'Mars/Olympus' }, line: 1, column: 9 });
  });
});

describe('refusals', () => {
  it('reports bad locales, currencies, zones, dates and options at the filter', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['{{ 1 | number("xx") }}', {}],
      ['{{ 1 | number("en_US") }}', {}],
      ['{{ 1 | number("' + 'de-DE-u-nu-latn-ca-gregory-co-phonebk' + '") }}', {}],
      ['{{ 1 | currency("EURO") }}', {}],
      ['{{ 1 | currency("eur") }}', {}],
      ['{{ 1 | currency("XYZ") }}', {}],
      ['{{ 1 | currency }}', {}],
      ['{{ 1 | date(timeZone="Europe/Atlantis") }}', {}],
      ['{{ 1 | date(timeZone="' + 'A'.repeat(65) + '") }}', {}],
      ['{{ "yesterday" | date }}', {}],
      ['{{ "2026-02-30" | date }}', {}],
      ['{{ "2026-12-02T25:00:00Z" | date }}', {}],
      ['{{ 1 | date("dd.MM.yyyy") }}', {}],
      ['{{ 1 | date("yyyyyyyy") }}', {}],
      ['{{ 1 | time("yMd") }}', {}],
      ['{{ "abc" | number }}', {}],
      ['{{ flag | number }}', { flag: true }],
      ['{{ items | currency("EUR") }}', { items: [1] }],
      ['{{ 1 | number(colour="red") }}', {}],
      ['{{ 1 | number(maximumFractionDigits=99) }}', {}],
      ['{{ 1 | number(minimumFractionDigits=3, maximumFractionDigits=1) }}', {}],
      ['{{ 1 | number("en-US", "de-DE") }}', {}],
      ['{{ 1 | number(locale=1) }}', {}],
      ['{{ 1 | number(locale="' + 'x'.repeat(65) + '") }}', {}],
      ['{{ 1 | relative("fortnight") }}', {}],
      ['{{ 1 | number(options) }}', { options: JSON.parse('{"__proto__": {"maximumFractionDigits": 1}}') }],
    ];
    for (const [source, data] of cases) {
      // the filter's name, after the first "| "
      const column = source.indexOf('| ') + 3;
      const { error } = await expectRefused(source, 'template_invalid_filter_input', { data, line: 1, column });
      expect(error.message).toBe('template_invalid_filter_input');
    }
  });

  it('reports undefined input and arguments as missing data', async () => {
    const { error } = await expectRefused('<p>\n{{ order.total | currency("EUR") }}', 'template_missing_data', { data: { order: {} }, line: 2, column: 18 });
    expect(error.variable).toBe('order.total');
    await expectRefused('{{ 5 | currency(order.currency) }}', 'template_missing_data', { data: { order: {} }, line: 1, column: 8 });
    await expectRefused('{{ at | date(timeZone=zone) }}', 'template_missing_data', { data: { at: 0 }, line: 1, column: 9 });
  });
});

describe('the work budget', () => {
  it('charges every call, so a loop of calls ends as template_work_limit', async () => {
    // 20,000 plain outputs fit the budget; with a formatting filter in each they do not
    const loop = (body: string) => `{% for i in range(0, 200) %}{% for j in range(0, 100) %}${body}{% endfor %}{% endfor %}`;
    const { html } = await evaluateTemplate({ source: loop('{{ j }}'), data: {}, limits: { timeMs: 20_000 } });
    expect(html.length).toBeGreaterThan(20_000);
    await expectRefused(loop('{{ j | number }}'), 'template_work_limit', { limits: { timeMs: 20_000 } });
    // a table of 10,000 rows with one formatted value per row fits the default budget
    const { html: table } = await evaluateTemplate({ source: '{% for i in range(0, 10000) %}{{ i | currency("EUR") }}{% endfor %}', data: {}, limits: { timeMs: 20_000 } });
    expect(table).toContain('€9,999.00');
    // a million calls stop the same way, long before the clock
    const { ms } = await expectRefused('{% for i in range(0, 1000) %}{% for j in range(0, 1000) %}{{ j | percent }}{% endfor %}{% endfor %}', 'template_work_limit', {
      limits: { timeMs: 60_000 },
    });
    expect(ms).toBeLessThan(30_000);
  });

  it('charges each formatter an evaluation builds, and allows it a hundred', async () => {
    const distinct = (count: number) => `{% for i in range(0, ${count}) %}{{ 1 | number(minimumIntegerDigits=(i % 21) + 1, maximumFractionDigits=(i / 21) | int) }} {% endfor %}`;
    expect((await render(distinct(100))).split(' ')).toHaveLength(101);
    await expectRefused(distinct(101), 'template_work_limit');
  });
});

describe('isolation', () => {
  it("leaves the host's formatter off the VM's global object", async () => {
    expect(await render("{{ ''.constructor.constructor('return typeof svcFormat + typeof globalThis.svcFormat')() }}")).toBe('undefinedundefined');
  });

  it('caches formatters alone, keyed by locale, zone and options, never by a value formatted', () => {
    const values = [987654.321, '2026-07-04T12:34:56Z'];
    expect(format('number', values[0], 'de-DE', 'UTC', '{}')).toMatchObject({ ok: true, text: '987.654,321' });
    expect(format('date', values[1], 'en-US', 'Asia/Tokyo', '{"format":"short"}')).toMatchObject({ ok: true, text: '7/4/26' });
    const snapshot = formatterCacheSnapshot();
    expect(snapshot.length).toBeGreaterThan(0);
    for (const { key, type } of snapshot) {
      expect(type).toMatch(/^\[object Intl\.(NumberFormat|DateTimeFormat|RelativeTimeFormat)\]$/);
      expect(key).not.toMatch(/987|654|2026|12:34/);
    }
  });

  it('keeps at most FORMATTER_CACHE_ENTRIES formatters', () => {
    for (let digits = 0; digits <= 20; digits++) {
      for (let integer = 1; integer <= 21; integer++) {
        const options = JSON.stringify({ minimumIntegerDigits: integer, maximumFractionDigits: digits, minimumFractionDigits: 0 });
        expect(format('number', 1, 'en-US', 'UTC', options).ok).toBe(true);
      }
    }
    expect(formatterCacheSnapshot()).toHaveLength(FORMATTER_CACHE_ENTRIES);
  });

  it("never carries one evaluation's locale or zone into the next in a shared sandbox", async () => {
    const source = '{{ 1234.5 | number }} {{ 0 | time("short") }}';
    const run = async (data: Record<string, unknown>) => (await evaluateTemplate({ source, data, tenant: 'acct_locale' })).html;
    expect(await run({ locale: 'de-DE', timeZone: 'Asia/Tokyo' })).toBe('1.234,5 09:00');
    expect(await run({})).toBe('1,234.5 12:00 AM');
    expect(await run({ locale: 'hi-IN' })).toBe('1,234.5 12:00 am');
  });

  it('gives the same output for the same template and data', async () => {
    const source = '{{ at | datetime("full", "he-IL", timeZone="Asia/Jerusalem") }} {{ n | currency("ILS", "he-IL") }}';
    const first = await render(source, { at: iso, n: 1e6 });
    expect(await render(source, { at: iso, n: 1e6 })).toBe(first);
  });
});
