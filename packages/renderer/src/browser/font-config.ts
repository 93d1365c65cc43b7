// The browser's fontconfig file: proprietary family names resolve to their metric-compatible
// faces, and each generic CSS family to chosen faces and then Noto's script faces. It is
// written into the browser account's own XDG config directory (fontconfig/fonts.conf), which
// Debian's /etc/fonts/conf.d/50-user.conf includes: the browser reads it as its own file, while
// the checkout (possibly 0700, in root's home) stays closed to it. Written after Debian's metric
// aliases (30-) and before its generic preferences (60-), so these win where they differ.
import { genericFontFamilies, metricCompatibleAliases, scriptFallbackFamilies } from '@svc/rules';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** binding="same": a preferred face is as strong a match as the name asked for, so Chromium takes it instead of its own fallback. */
function alias(name: string, prefer: readonly string[]): string {
  const families = prefer.map((family) => `<family>${escapeXml(family)}</family>`).join('');
  return `  <alias binding="same"><family>${escapeXml(name)}</family><prefer>${families}</prefer></alias>`;
}

/** The whole fonts.conf. */
export function fontconfigXml(): string {
  const aliases = [
    ...metricCompatibleAliases.map(({ name, family }) => alias(name, [family])),
    alias('sans-serif', [...genericFontFamilies['sans-serif'], ...scriptFallbackFamilies]),
    alias('serif', [...genericFontFamilies.serif, ...scriptFallbackFamilies]),
    alias('monospace', [...genericFontFamilies.monospace, ...scriptFallbackFamilies]),
    alias('emoji', genericFontFamilies.emoji),
  ];
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<!-- written by the renderer for each browser profile; edit packages/rules/src/fonts.ts instead -->',
    '<fontconfig>',
    ...aliases,
    '</fontconfig>',
    '',
  ].join('\n');
}

/** Where fontconfig looks for it under an XDG config home. */
export const FONTCONFIG_RELATIVE = ['fontconfig', 'fonts.conf'] as const;
