'use client';

import { type FontCategory, fontFamilyValue, installedFontFamilies, metricCompatibleAliases } from '@svc/rules';
import { Button } from '../ui/button.tsx';
import { CopyButton } from '../ui/copy-button.tsx';

const groups: { category: FontCategory; title: string }[] = [
  { category: 'sans-serif', title: 'Sans-serif' },
  { category: 'serif', title: 'Serif' },
  { category: 'monospace', title: 'Monospace' },
  { category: 'emoji', title: 'Emoji' },
];

/**
 * The editor's font help: the families every render can use (packages/rules/src/fonts.ts, as
 * docs/fonts.md lists them), each with a sample and its CSS font-family value to copy or insert
 * at the cursor. Samples are drawn with this browser's fonts; renders use the workers' own.
 */
export function FontPicker({ onInsert }: { onInsert: (declaration: string) => void }) {
  return (
    <section aria-labelledby="fonts-title" className="space-y-4 text-sm" data-testid="font-picker">
      <h2 id="fonts-title" className="font-semibold">
        Fonts <span className="font-normal text-slate-600">(installed on every render worker)</span>
      </h2>
      <div className="space-y-4">
        <p className="text-slate-600">
          {metricCompatibleAliases.map((alias) => `${alias.name} draws as ${alias.family}`).join('; ')}, with the same widths. Text in other scripts and emoji
          finds a Noto face by itself; mark CJK text with <code>lang</code>. Brand fonts load with <code>@font-face</code>. Samples below use the fonts of this
          browser; a test render shows the worker&apos;s.
        </p>
        {groups.map((group) => (
          <section key={group.category} aria-label={`${group.title} fonts`}>
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.title}</h3>
            <ul className="divide-y divide-slate-100">
              {installedFontFamilies
                .filter((font) => font.category === group.category)
                .map((font) => {
                  const value = fontFamilyValue(font);
                  return (
                    <li key={font.family} className="flex flex-wrap items-center gap-2 py-2" data-family={font.family}>
                      <div className="min-w-0 flex-1">
                        <p className="font-medium">
                          {font.family}
                          {font.replaces.length > 0 ? <span className="font-normal text-slate-500"> for {font.replaces.join(', ')}</span> : null}
                        </p>
                        <p className="truncate text-base" style={{ fontFamily: value }}>
                          {font.sample}
                        </p>
                        <code className="text-xs text-slate-600">font-family: {value};</code>
                      </div>
                      <CopyButton value={value} label="Copy" />
                      <Button variant="secondary" onClick={() => onInsert(`font-family: ${value};`)} aria-label={`Insert font-family ${font.family} at the cursor`}>
                        Insert
                      </Button>
                    </li>
                  );
                })}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}
