import { brandKitIdPrefix, idPattern, maxBrandKitColours, maxBrandKitNameChars, maxToneGuidanceChars, type ErrorCode } from '@svc/contracts';
import type { Plan } from '@svc/db';
import { DomainError } from '../shared/errors.ts';

/** Brand kits an account may hold, archived ones included (the contract's brand kit routes and limits). */
export const brandKitLimits: Record<Plan, number> = { free: 1, pack: 1, starter: 1, growth: 5, scale: 20 };

export const brandKitNotFound = () => new DomainError('brand_kit_not_found');

/** A path id that cannot name a kit answers the same 404 as a foreign or missing one. */
export function checkBrandKitId(brandKitId: string): void {
  if (!idPattern(brandKitIdPrefix).test(brandKitId)) throw brandKitNotFound();
}

const invalid = (code: ErrorCode, field: string) => new DomainError(code, { details: [{ field, reason: 'invalid value' }] });
const characters = (text: string) => [...text].length;
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

/** Names are trimmed: 1 to 100 characters (code points), no control characters. */
export function normaliseKitName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || characters(trimmed) > maxBrandKitNameChars || controlCharacters.test(trimmed)) throw invalid('brand_kit_name_invalid', 'name');
  return trimmed;
}

/** Colours: # and 6 hex digits in either case, stored lowercase; unique after that; at most 16; order kept. */
export function normaliseColours(colours: string[]): string[] {
  if (colours.length > maxBrandKitColours) throw invalid('brand_kit_colours_invalid', 'colours');
  const seen = new Set<string>();
  return colours.map((colour, index) => {
    const lower = colour.toLowerCase();
    if (!/^#[0-9a-f]{6}$/.test(lower) || seen.has(lower)) throw invalid('brand_kit_colours_invalid', `colours.${index}`);
    seen.add(lower);
    return lower;
  });
}

/** Tone guidance is kept as written (line breaks are meaningful): 1 to 500 characters with a visible one, or null. */
export function checkToneGuidance(tone: string | null): string | null {
  if (tone === null) return null;
  if (tone.trim() === '' || characters(tone) > maxToneGuidanceChars) throw invalid('brand_kit_tone_invalid', 'tone_guidance');
  return tone;
}
