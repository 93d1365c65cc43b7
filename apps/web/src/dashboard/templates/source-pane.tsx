'use client';

import type { ReactNode } from 'react';
import type { SourceMark } from './code-editor.tsx';
import { LazyCodeEditor } from './lazy.tsx';

export interface SourcePaneProps {
  source: string;
  onSourceChange: (source: string) => void;
  /** the service's errors, marked at their line */
  marks: SourceMark[];
  /** where to move the cursor (a line picked in an error list) */
  focusLine: { line: number; column?: number; nonce: number } | null;
  /** text to put at the cursor (a font picked in the side panel) */
  insertion: { text: string; nonce: number } | null;
  /** controls at the end of the pane's title bar, such as a choice between ways of editing */
  tools?: ReactNode;
  /** another way of editing the same source, laid over the pane (the code editor stays mounted under it) */
  children?: ReactNode;
  /** hides the code editor while the children show */
  codeHidden?: boolean;
}

/**
 * The workspace's source pane: a title bar and, filling the height below it, the code editor
 * (or whatever other editor of the source the children bring). The editor keeps its cursor and
 * scroll while the page around it refreshes, since this pane stays mounted across saves.
 */
export function SourcePane({ source, onSourceChange, marks, focusLine, insertion, tools, children, codeHidden = false }: SourcePaneProps) {
  return (
    <section aria-labelledby="source-title" className="flex min-h-[28rem] min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white lg:min-h-0">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
        <h2 id="source-title" className="text-sm font-semibold">
          Source <span className="font-normal text-slate-500">(HTML with nunjucks)</span>
        </h2>
        {tools}
      </div>
      <div className="relative min-h-0 flex-1" data-testid="source-editor">
        {children}
        <div className="absolute inset-0" hidden={codeHidden}>
          <LazyCodeEditor value={source} onChange={onSourceChange} marks={marks} label="Template source" focusLine={focusLine} insertion={insertion} height="100%" />
        </div>
      </div>
    </section>
  );
}
