// The regular-expression engine of data schemas: RE2 (re2js), whose matching time is linear in
// the length of the value, so no pattern and no value can make a check backtrack. JSON Schema
// patterns are ECMAScript regular expressions; RE2 runs the same syntax except backreferences and
// lookaround, which it cannot run in linear time (they are refused when a schema is saved).
import { RE2JS } from 're2js';

export interface LinearRegExp {
  test(value: string): boolean;
  /** Names the pattern and flags: Ajv keeps one compiled pattern per toString(). */
  toString(): string;
}

/** Ajv's `code.regExp` option: pattern and patternProperties compile here instead of to RegExp. */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): LinearRegExp => {
    if (flags !== '' && flags !== 'u') throw new Error('unsupported regular expression flags');
    return compileLinear(pattern, 0);
  },
  // what Ajv would write in standalone code; the service never generates it
  { code: 'linearRegExp' },
);

/** An ECMAScript pattern run by RE2 (found anywhere in the value, as RegExp.test). */
export function compileLinear(pattern: string, flags: number): LinearRegExp {
  const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
  return { test: (value) => compiled.test(value), toString: () => `/${pattern}/${flags}` };
}

export const linearFlags = { caseInsensitive: RE2JS.CASE_INSENSITIVE, multiline: RE2JS.MULTILINE } as const;

/** Backreferences by number or name: RE2's translation would read `\k<name>` as literal text, so they are found first. */
const backreference = /\\[1-9]|\\k</;

/**
 * Whether a schema pattern can be saved: `invalid` when it is no ECMAScript regular expression
 * (with the u flag, as Ajv compiles it), `unsupported` when RE2 cannot run it in linear time
 * (backreferences, lookahead, lookbehind, repetition counts over 1,000).
 */
export function checkLinearPattern(pattern: string): 'ok' | 'invalid' | 'unsupported' {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'invalid';
  }
  if (backreference.test(pattern)) return 'unsupported';
  try {
    compileLinear(pattern, 0);
  } catch {
    return 'unsupported';
  }
  return 'ok';
}
