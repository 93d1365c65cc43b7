'use client';

import type { FieldDetail } from '@svc/contracts';
import { ReportProblemList } from '../report/report-view.tsx';
import type { TestRenderOutcome } from './actions.ts';
import { DetailList } from './detail-list.tsx';
import { FittedPreviewFrame } from './preview-frame.tsx';

export type PreviewState =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'shown'; html: string }
  | { state: 'failed'; message: string; code: string; details: FieldDetail[]; lastHtml: string | null };

/** A finished test render, whose report's problems the preview pane repeats. */
export type RenderedTest = Extract<TestRenderOutcome, { jobId: string }> & { version: number };

export interface PreviewPaneProps {
  preview: PreviewState;
  /** the canvas a canvas template is laid out on; documents use an A4 page */
  canvas: { width: number; height: number } | null;
  /** the last test render, if any: its problems are listed under the preview */
  rendered: RenderedTest | null;
  onPickLine: (line: number, column?: number) => void;
}

/** The page a document template is previewed on: A4 at 96 dpi. */
const documentPage = { width: 794, height: 1123 };

/** The live preview filling its pane, the preview's errors above it, and the last test render's problems below it. */
export function PreviewPane({ preview, canvas, rendered, onPickLine }: PreviewPaneProps) {
  const shownHtml = preview.state === 'shown' ? preview.html : preview.state === 'failed' ? preview.lastHtml : null;
  return (
    <section aria-labelledby="preview-title" className="flex min-h-[28rem] min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white lg:min-h-0">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
        <h2 id="preview-title" className="text-sm font-semibold">
          Live preview
        </h2>
        <span role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="preview-status">
          {preview.state === 'loading' ? 'Updating…' : preview.state === 'failed' ? 'Showing the last good preview' : preview.state === 'shown' ? 'Up to date' : ''}
        </span>
      </div>
      {preview.state === 'failed' ? (
        <div role="alert" className="max-h-40 overflow-auto border-b border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="preview-errors">
          <p className="font-medium">
            {preview.message} <span className="font-mono text-xs">({preview.code})</span>
          </p>
          <DetailList details={preview.details} onPick={onPickLine} />
        </div>
      ) : null}
      {/* a scrolling region: focusable, so the keyboard can scroll a long document or a large canvas too */}
      <div tabIndex={0} role="region" aria-label="Preview area" className="min-h-0 flex-1 overflow-auto bg-slate-100 p-3 focus-visible:outline-2 focus-visible:outline-indigo-600" data-testid="preview-area">
        {shownHtml !== null ? (
          // a document is laid out as an A4 page at 96 dpi (794 px wide), scaled to the pane's width
          <FittedPreviewFrame html={shownHtml} title="Template preview" canvas={canvas ?? documentPage} className="mx-auto bg-white shadow" />
        ) : (
          <p className="py-16 text-center text-sm text-slate-600">{preview.state === 'failed' ? 'Fix the problem above to see a preview.' : 'Preparing the preview…'}</p>
        )}
      </div>
      {rendered ? <RenderedProblems rendered={rendered} /> : null}
    </section>
  );
}

/** What the last test render's report found, kept in sight beside the preview it resembles. */
function RenderedProblems({ rendered }: { rendered: RenderedTest }) {
  const report = (
    <a className="text-indigo-700 underline" href={`/dashboard/renders/${rendered.jobId}`}>
      full report
    </a>
  );
  if (rendered.problems.length === 0) {
    return (
      <p className="border-t border-slate-200 px-3 py-2 text-xs text-slate-700" data-testid="preview-render-problems">
        Test render of version {rendered.version}: no problems found ({report}).
      </p>
    );
  }
  return (
    <div role="group" aria-label="Problems of the last test render" className="max-h-48 overflow-auto border-t border-amber-200 bg-amber-50/40 px-3 py-2" data-testid="preview-render-problems">
      <p className="mb-1 text-xs font-medium">
        Test render of version {rendered.version} found problems ({report}):
      </p>
      <ReportProblemList problems={rendered.problems} omitted={rendered.omitted} compact />
    </div>
  );
}
