'use client';

import { cn } from '../../ui/cn.ts';

export type SourceView = 'visual' | 'code';

/** Visual | Code over a canvas template's source: two views of one text. */
export function SourceViewSwitch({ view, onChange }: { view: SourceView; onChange: (view: SourceView) => void }) {
  const option = (value: SourceView, label: string) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className={cn(
        'px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        view === value ? 'bg-indigo-600 text-white' : 'bg-white text-slate-800 hover:bg-slate-100',
      )}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="Source view" className="inline-flex overflow-hidden rounded-md border border-slate-300">
      {option('visual', 'Visual')}
      {option('code', 'Code')}
    </div>
  );
}
