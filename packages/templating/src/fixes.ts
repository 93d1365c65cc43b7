// What a template refused for being stricter than stock nunjucks should change, in one sentence
// with the line to write (docs/templates.md, Porting from Nunjucks). Built from fixed words, the
// sandbox's kind of refusal, a built-in filter's name and the missing variable's name (the
// source's own identifiers): never from data or rendered output.
import type { TemplateErrorCode } from '@svc/rules';

const textFilters = new Set(['capitalize', 'center', 'indent', 'lower', 'nl2br', 'striptags', 'title', 'trim', 'truncate', 'upper', 'urlize', 'wordcount']);
const numberFilters = new Set(['abs', 'round']);
const listFilters = new Set(['batch', 'join', 'reject', 'rejectattr', 'select', 'selectattr', 'slice', 'sort', 'sum']);
// these answer nothing (undefined) for an empty default, so only `is defined` helps
const pickFilters = new Set(['first', 'last', 'random']);
const formattingFilters = new Set(['number', 'percent', 'currency', 'date', 'time', 'datetime', 'relative']);

const definedTest = (name: string) => `or test it with {% if ${name} is defined %}`;

/** The default that a filter given undefined accepts, or null when only `is defined` helps. */
function emptyFor(filter: string): string | null {
  if (textFilters.has(filter)) return '""';
  if (numberFilters.has(filter)) return '0';
  if (listFilters.has(filter) || filter === 'groupby') return '[]';
  if (filter === 'dictsort') return '{}';
  if (filter === 'reverse') return '""';
  return null;
}

function missingFix(kind: string, variable: string | undefined): string | undefined {
  if (kind === 'value') {
    if (variable === undefined) return 'Give it in the data, or follow it with | default(""), or test it with "is defined" in an if.';
    return `Give ${variable} in the data, or write {{ ${variable} | default("") }}, ${definedTest(variable)}.`;
  }
  if (kind.startsWith('filter.')) {
    const filter = kind.slice('filter.'.length);
    const empty = emptyFor(filter);
    if (variable === undefined) {
      return empty === null
        ? `Give it in the data, or test it with "is defined" in an if around the ${filter} filter.`
        : `Give it in the data, or put | default(${empty}) before | ${filter}.`;
    }
    return empty === null
      ? `Give ${variable} in the data, ${definedTest(variable)}{{ ${variable} | ${filter} }}{% endif %}.`
      : `Give ${variable} in the data, or put a default before the filter: {{ ${variable} | default(${empty}) | ${filter} }}, ${definedTest(variable)}.`;
  }
  if (kind === 'argument') {
    return 'Give the filter\'s argument in the data, or give it a default: currency(order.currency | default("EUR")).';
  }
  if (kind === 'call') {
    return 'Only macros of this template and range, cycler and joiner can be called: define it with {% macro %}, or give its result in the data.';
  }
  return undefined;
}

function filterInputFix(filter: string): string | undefined {
  if (filter === 'groupby') {
    return 'Give every item the attribute (null is a group of its own), or keep only the items that have it: {{ items | selectattr("kind") | groupby("kind") }}.';
  }
  if (textFilters.has(filter)) return `${filter} needs text: convert the value first, {{ value | string | ${filter} }}.`;
  if (numberFilters.has(filter)) return `${filter} needs a number: give one in the data, or convert the value first, {{ value | float | ${filter} }}.`;
  if (listFilters.has(filter) || pickFilters.has(filter)) return `${filter} needs a list: give an array in the data.`;
  if (filter === 'reverse') return 'reverse needs a list or text: {{ value | string | reverse }}.';
  if (filter === 'dictsort') return 'dictsort needs an object: give one in the data.';
  if (formattingFilters.has(filter)) {
    return `${filter} needs a number or an ISO 8601 date, and a known locale, currency and time zone: check the value and the arguments.`;
  }
  return undefined;
}

/**
 * The fix for a refusal, or undefined when no one line fixes it (a limit, a syntax error).
 * `kind` is the sandbox's: loader, digit, unknownfilter, value, call, argument, filter.<name>.
 */
export function templateFix(code: TemplateErrorCode, kind: string | undefined, variable: string | undefined): string | undefined {
  if (kind === undefined || !/^[a-z][a-z0-9]{0,31}(?:\.[a-z][a-z0-9]{0,31})?$/.test(kind)) return undefined;
  if (code === 'template_missing_data') return missingFix(kind, variable);
  if (code === 'template_invalid_filter_input' && kind.startsWith('filter.')) return filterInputFix(kind.slice('filter.'.length));
  if (code !== 'template_syntax_error') return undefined;
  if (kind === 'loader') {
    return 'include, import and extends are not available (a template is one source): paste the other template in place, and write shared parts as a {% macro %} in this template.';
  }
  if (kind === 'digit') return 'A name cannot start with a digit (1e12 is read as a number): rename the value in the data.';
  if (kind === 'unknownfilter') return 'Use a built-in or formatting filter, or a {% macro %} of this template.';
  return undefined;
}
