// The fonts every render worker carries (Debian packages installed by scripts/bootstrap.mjs),
// the proprietary names that resolve to a metric-compatible face, and what each generic CSS
// family means. The renderer writes its fontconfig file from these lists, docs/fonts.md names
// them (a test compares), and the dashboard's font picker shows them: one list for all three.

/** The generic CSS family a face belongs to (and falls back to). */
export type FontCategory = 'sans-serif' | 'serif' | 'monospace' | 'emoji';

export interface InstalledFontFamily {
  /** the family name as CSS and fontconfig spell it */
  family: string;
  category: FontCategory;
  /** the Debian package that installs it */
  debianPackage: string;
  /** proprietary families that resolve to this one, with the same advance widths */
  replaces: readonly string[];
  /** a short line to show the face with */
  sample: string;
}

const latinSample = 'Sphinx of black quartz, judge my vow. 0123456789';

export const installedFontFamilies: readonly InstalledFontFamily[] = [
  { family: 'Liberation Sans', category: 'sans-serif', debianPackage: 'fonts-liberation2', replaces: ['Arial', 'Helvetica'], sample: latinSample },
  { family: 'Carlito', category: 'sans-serif', debianPackage: 'fonts-crosextra-carlito', replaces: ['Calibri'], sample: latinSample },
  { family: 'Inter', category: 'sans-serif', debianPackage: 'fonts-inter', replaces: [], sample: latinSample },
  { family: 'Roboto', category: 'sans-serif', debianPackage: 'fonts-roboto-unhinted', replaces: [], sample: latinSample },
  { family: 'Open Sans', category: 'sans-serif', debianPackage: 'fonts-open-sans', replaces: [], sample: latinSample },
  { family: 'Lato', category: 'sans-serif', debianPackage: 'fonts-lato', replaces: [], sample: latinSample },
  { family: 'Noto Sans', category: 'sans-serif', debianPackage: 'fonts-noto-core', replaces: [], sample: 'Sphinx of black quartz · Ζεύς · Съешь же ещё' },
  { family: 'DejaVu Sans', category: 'sans-serif', debianPackage: 'fonts-dejavu-core', replaces: [], sample: latinSample },
  { family: 'Noto Sans CJK SC', category: 'sans-serif', debianPackage: 'fonts-noto-cjk', replaces: [], sample: '简体中文 汉字示例' },
  { family: 'Noto Sans CJK TC', category: 'sans-serif', debianPackage: 'fonts-noto-cjk', replaces: [], sample: '繁體中文 漢字範例' },
  { family: 'Noto Sans CJK JP', category: 'sans-serif', debianPackage: 'fonts-noto-cjk', replaces: [], sample: '日本語のサンプル ひらがな カタカナ' },
  { family: 'Noto Sans CJK KR', category: 'sans-serif', debianPackage: 'fonts-noto-cjk', replaces: [], sample: '한국어 견본 글꼴' },
  { family: 'Liberation Serif', category: 'serif', debianPackage: 'fonts-liberation2', replaces: ['Times New Roman', 'Times'], sample: latinSample },
  { family: 'Caladea', category: 'serif', debianPackage: 'fonts-crosextra-caladea', replaces: ['Cambria'], sample: latinSample },
  { family: 'Noto Serif', category: 'serif', debianPackage: 'fonts-noto-core', replaces: [], sample: 'Sphinx of black quartz · Ζεύς · Съешь же ещё' },
  { family: 'DejaVu Serif', category: 'serif', debianPackage: 'fonts-dejavu-core', replaces: [], sample: latinSample },
  { family: 'Noto Serif CJK SC', category: 'serif', debianPackage: 'fonts-noto-cjk', replaces: [], sample: '简体中文 宋体示例' },
  { family: 'Noto Serif CJK JP', category: 'serif', debianPackage: 'fonts-noto-cjk', replaces: [], sample: '日本語の明朝体' },
  { family: 'Liberation Mono', category: 'monospace', debianPackage: 'fonts-liberation2', replaces: ['Courier New', 'Courier'], sample: 'let total = price * 1.2; // 0O 1lI' },
  { family: 'Fira Code', category: 'monospace', debianPackage: 'fonts-firacode', replaces: [], sample: 'let total = price * 1.2; // => != <=' },
  { family: 'DejaVu Sans Mono', category: 'monospace', debianPackage: 'fonts-dejavu-core', replaces: [], sample: 'let total = price * 1.2; // 0O 1lI' },
  { family: 'Noto Color Emoji', category: 'emoji', debianPackage: 'fonts-noto-color-emoji', replaces: [], sample: '😀 🎉 👍🏽 🇯🇵 ❤️' },
];

/**
 * Each generic CSS family's faces, first to last. Chromium itself resolves the generic names of
 * a page to Arial, Times New Roman and Courier New (metric aliases below), so these orders
 * matter where fontconfig resolves a generic name itself.
 */
export const genericFontFamilies = {
  'sans-serif': ['Liberation Sans', 'Noto Sans'],
  serif: ['Liberation Serif', 'Noto Serif'],
  monospace: ['Liberation Mono', 'DejaVu Sans Mono'],
  emoji: ['Noto Color Emoji'],
} as const;

/**
 * Where a character the page's face lacks is looked for, in order, after the generic faces:
 * Chromium asks fontconfig for a face that has it in sans-serif's order, whatever the page's
 * generic family. fonts-noto-core holds a face for nearly every script in Unicode; these come
 * first, so a script DejaVu Sans also covers (Arabic) is drawn with Noto's face. Chinese,
 * Japanese and Korean are left to fontconfig's own per-language order (Noto Sans CJK SC, TC,
 * JP or KR by the text's lang), and emoji to Chromium, which asks for Noto Color Emoji.
 */
export const scriptFallbackFamilies = [
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  'Noto Sans Devanagari',
  'Noto Sans Bengali',
  'Noto Sans Tamil',
  'Noto Sans Thai',
  'Noto Sans Armenian',
  'Noto Sans Georgian',
  'Noto Sans Ethiopic',
  'Noto Sans Symbols',
  'Noto Sans Symbols2',
] as const;

/** Proprietary family -> the installed family with its metrics (from installedFontFamilies). */
export const metricCompatibleAliases: readonly { name: string; family: string }[] = installedFontFamilies.flatMap((font) =>
  font.replaces.map((name) => ({ name, family: font.family })),
);

/** The CSS font-family value to use a family with: quoted when the name has a space, then its generic family. */
export function fontFamilyValue(font: InstalledFontFamily): string {
  const name = /^[A-Za-z-]+$/.test(font.family) ? font.family : `"${font.family}"`;
  return font.replaces.length > 0 ? `${name}, ${font.replaces.map((alias) => (/\s/.test(alias) ? `"${alias}"` : alias)).join(', ')}, ${font.category}` : `${name}, ${font.category}`;
}
