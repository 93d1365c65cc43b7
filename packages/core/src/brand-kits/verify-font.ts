// Validation of uploaded brand fonts (the contract's brand kit routes): WOFF2 only, checked and sanitised by the OpenType
// Sanitizer (ots-sanitize, Debian package opentype-sanitizer: the same checks Chromium runs on
// web fonts, so a font that passes here loads in the renderer), then its glyphs counted with fontkit.
import { hasUnsafeText } from '@svc/contracts';
import { ParserFailedError, runSandboxed } from '@svc/sandbox';
import { DomainError } from '../shared/errors.ts';
import { refuseWithoutSandbox } from '../shared/upload-sandbox.ts';

/**
 * Glyphs a brand font may hold. The format allows 65,535; 20,000 covers every Latin, Greek,
 * Cyrillic, Arabic, Hebrew and Indic family with room to spare (DejaVu Sans has about 6,000),
 * while keeping what a render embeds and Chromium shapes bounded. A full CJK font (about 65,000)
 * must be subset to the characters the brand uses.
 */
export const maxFontGlyphs = 20_000;
/** ots-sanitize on a 10 MiB font takes well under a second; past this it is treated as refused. */
export const fontSanitizeTimeoutMs = 10_000;
export const otsSanitizeBinary = '/usr/bin/ots-sanitize';
/** A sanitised font is an uncompressed sfnt: a few times its WOFF2 (at most 10 MiB) at most. */
const maxSanitisedBytes = 64 * 1024 * 1024;
/** The sandbox's /tmp while it sanitises: the upload (at most 10 MiB) and the largest output allowed. */
const sanitiseTmpBytes = 10 * 1024 * 1024 + maxSanitisedBytes + 1024 * 1024;

export interface VerifiedFont {
  /** The family name from the font's name table, or null when it names none. */
  family: string | null;
  glyphCount: number;
  /** The sanitiser's output (an sfnt font): what it judged safe. */
  sanitised: Buffer;
}

export interface VerifyFontOptions {
  maxGlyphs?: number;
  timeoutMs?: number;
}

const woff2Signature = Buffer.from('wOF2', 'latin1');
const tablesInvalid = () => new DomainError('brand_font_tables_invalid');

/**
 * Checks that bytes are a WOFF2 font the sanitiser accepts and that its glyph count is within the
 * bound. Bytes that are not WOFF2 at all (a TTF, OTF or WOFF 1 declared as font/woff2, or anything
 * else) answer brand_asset_type_unsupported; a WOFF2 the sanitiser refuses (truncated, bad tables)
 * brand_font_tables_invalid; too many glyphs brand_font_glyphs_exceeded.
 */
export async function verifyFont(bytes: Uint8Array, options: VerifyFontOptions = {}): Promise<VerifiedFont> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (input.length < 48 || !input.subarray(0, 4).equals(woff2Signature)) throw new DomainError('brand_asset_type_unsupported');
  const sanitised = await sanitise(input, options.timeoutMs ?? fontSanitizeTimeoutMs);
  const fontkit = await import('fontkit');
  let glyphCount: number;
  let family: string | null;
  try {
    const font = fontkit.create(sanitised);
    if (!('numGlyphs' in font)) throw tablesInvalid();
    glyphCount = font.numGlyphs;
    // a name the service could not store whole (U+0000 padding, a broken UTF-16 record) names no family
    const named = font.familyName?.trim() || null;
    family = named !== null && hasUnsafeText(named) ? null : named;
  } catch {
    throw tablesInvalid();
  }
  if (glyphCount > (options.maxGlyphs ?? maxFontGlyphs)) throw new DomainError('brand_font_glyphs_exceeded');
  return { family, glyphCount, sanitised };
}

/**
 * Runs ots-sanitize in the sandbox (@svc/sandbox: an unprivileged account, no network, no view
 * of the service's files, the seccomp filter, an environment of its own). The font goes in on
 * standard input and the sanitised font comes out on standard output; in between both files
 * live in the sandbox's own /tmp, a tmpfs of a fixed size, so nothing the sanitiser writes
 * reaches the service's disk or grows past that size. Any refusal, crash or timeout is a refusal.
 */
async function sanitise(input: Buffer, timeoutMs: number): Promise<Buffer> {
  return await runSandboxed({
    command: '/bin/sh',
    // ots-sanitize's own messages go to standard error: standard output carries the font alone
    args: ['-c', `cat > /tmp/input.woff2 && ${otsSanitizeBinary} /tmp/input.woff2 /tmp/output.ttf >&2 && exec cat /tmp/output.ttf`],
    input,
    tmpBytes: sanitiseTmpBytes,
    timeoutMs,
    maxOutputBytes: maxSanitisedBytes,
  }).catch((error: unknown) => {
    if (error instanceof ParserFailedError) throw tablesInvalid();
    return refuseWithoutSandbox(error);
  });
}
