// The `format` checks of data schemas: ajv-formats' full set, with every regular expression it
// defines run by RE2 (linear-regexp.ts). Some of its expressions backtrack in quadratic time or
// worse on a long value (url takes half a second on 20,000 characters), and data may hold a
// megabyte. The few that use lookaround, which RE2 has not, are written as a linear expression
// plus a check of what the lookaround excluded. The date and time formats keep ajv-formats'
// functions: their expressions are anchored with no nested repetition (linear in V8 already).
import type { Format } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { RE2JS } from 're2js';
import { compileLinear, linearFlags } from './linear-regexp.ts';

/** An expression of ajv-formats run by RE2 with the same flags. */
function linear(expression: RegExp): (value: string) => boolean {
  const flags = (expression.flags.includes('i') ? linearFlags.caseInsensitive : 0) | (expression.flags.includes('m') ? linearFlags.multiline : 0);
  const compiled = compileLinear(expression.source, flags);
  return (value) => compiled.test(value);
}

/** ajv-formats' duration without its lookaheads: not `P` alone, and a `T` is followed by a digit. */
function duration(): (value: string) => boolean {
  const shape = compileLinear(String.raw`^P((\d+Y)?(\d+M)?(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$`, 0);
  return (value) => value !== 'P' && !value.endsWith('T') && shape.test(value);
}

/** ajv-formats' hostname without its lookahead: the length bound (1 to 253, and a trailing dot) is checked apart. */
function hostname(): (value: string) => boolean {
  const shape = compileLinear(String.raw`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$`, linearFlags.caseInsensitive);
  return (value) => value.length >= 1 && (value.length <= 253 || (value.length === 254 && value.endsWith('.'))) && shape.test(value);
}

/**
 * ajv-formats' url (dperini's expression) without its lookaheads: the dotted-quad host is
 * captured, and the private ranges the lookaheads excluded are refused from it.
 */
function url(): (value: string) => boolean {
  const name = String.raw`[a-z0-9\x{00a1}-\x{ffff}]`;
  const shape = RE2JS.compile(
    String.raw`^(?:https?|ftp)://(?:\S+(?::\S*)?@)?(?:((?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4])))|(?:(?:${name}+-)*${name}+)(?:\.(?:${name}+-)*${name}+)*(?:\.(?:[a-z\x{00a1}-\x{ffff}]{2,})))(?::\d{2,5})?(?:/[^\s]*)?$`,
    linearFlags.caseInsensitive,
  );
  const privateQuad = compileLinear(String.raw`^(?:(?:10|127)(?:\.\d{1,3}){3}|(?:169\.254|192\.168)(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})`, 0);
  return (value) => {
    const match = shape.exec(value);
    if (!match) return false;
    const quad = match[1] as string | undefined;
    return quad === undefined || !privateQuad.test(quad);
  };
}

/** ajv-formats' uri: its (unexported) URI expression, which must also contain a slash or a colon. */
function uri(): (value: string) => boolean {
  const shape = compileLinear(
    String.raw`^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$`,
    linearFlags.caseInsensitive,
  );
  return (value) => (value.includes('/') || value.includes(':')) && shape.test(value);
}

/** ajv-formats' byte (base64), multiline as there: some line is base64. */
function byte(): (value: string) => boolean {
  const shape = compileLinear(String.raw`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`, linearFlags.multiline);
  return (value) => shape.test(value);
}

/** Every format of ajv-formats' full mode, by name; made once per Ajv instance. */
export function dataFormats(): Record<string, Format> {
  const rewritten: Record<string, Format> = { duration: duration(), hostname: hostname(), url: url(), uri: uri(), byte: byte() };
  const formats: Record<string, Format> = {};
  for (const [name, format] of Object.entries(fullFormats)) {
    formats[name] = rewritten[name] ?? (format instanceof RegExp ? linear(format) : format);
  }
  return formats;
}
