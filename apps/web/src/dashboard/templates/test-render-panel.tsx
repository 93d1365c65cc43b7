'use client';

import type { SizeVariant } from '@svc/contracts';
import { useId, useState } from 'react';
import { Button, buttonClass } from '../ui/button.tsx';
import { Select } from '../ui/field.tsx';
import { ReportProblemList } from '../report/report-view.tsx';
import { ErrorState, Notice } from '../ui/states.tsx';
import { testRenderAction, type TestRenderOutcome } from './actions.ts';
import { callAction } from './call-action.ts';

/** The render the editor offers first: a starter's own settings, else an image of the canvas or an A4 PDF. */
export type OutputChoice =
  | { type: 'pdf'; pdf?: Record<string, unknown> }
  | { type: 'image'; format: 'png' | 'jpeg' | 'webp'; width: number; height: number };

export interface TestRenderPanelProps {
  csrfToken: string;
  templateId: string;
  version: number;
  data: Record<string, unknown>;
  output: OutputChoice;
  sizes: SizeVariant[];
  dirty: boolean;
  archived: boolean;
  /** told of each finished render, so the workspace can show its problems beside the preview */
  onRendered?: (done: Done) => void;
}

export type Done = Extract<TestRenderOutcome, { jobId: string }>;

/** A real render of the saved version with the editor's data (one credit, like any render), with its download. */
export function TestRenderPanel({ csrfToken, templateId, version, data, output, sizes, dirty, archived, onRendered }: TestRenderPanelProps) {
  const id = useId();
  const [kind, setKind] = useState<'pdf' | 'png' | 'jpeg' | 'webp'>(output.type === 'pdf' ? 'pdf' : output.format);
  const [sizeId, setSizeId] = useState('');
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const [problem, setProblem] = useState<{ message: string; code: string } | null>(null);

  const render = async () => {
    setRunning(true);
    setDone(null);
    setProblem(null);
    const size = sizes.find((candidate) => candidate.id === sizeId);
    const request =
      kind === 'pdf'
        ? { type: 'pdf', ...(output.type === 'pdf' && output.pdf ? { pdf: output.pdf } : {}) }
        : size
          ? { type: 'image', format: kind, size_id: size.id }
          : { type: 'image', format: kind, ...(output.type === 'image' ? { width: output.width, height: output.height } : {}) };
    const result = await callAction(testRenderAction, csrfToken, { templateId, version, data, output: request });
    setRunning(false);
    if (!result.ok) return setProblem({ message: result.message, code: result.code });
    if ('error' in result.data) return setProblem(result.data.error);
    setDone(result.data);
    onRendered?.(result.data);
    if (result.data.status !== 'succeeded') setProblem({ message: result.data.status === 'failed' ? 'The render failed.' : 'The render is still running; find it under Renders.', code: result.data.errorCode ?? result.data.status });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Test render
      </h2>
      <p className="text-sm text-slate-600">
        Renders saved version {version} with the data of the Data tab, as a real render (one credit).
        {dirty ? ' Unsaved changes are not included: save them first.' : ''}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          Format
          <Select value={kind} onChange={(event) => setKind(event.target.value as typeof kind)} className="w-36">
            <option value="pdf">PDF</option>
            <option value="png">PNG image</option>
            <option value="jpeg">JPEG image</option>
            <option value="webp">WebP image</option>
          </Select>
        </label>
        {kind !== 'pdf' && sizes.length > 0 ? (
          <label className="text-sm">
            Size
            <Select value={sizeId} onChange={(event) => setSizeId(event.target.value)} className="w-48">
              <option value="">Original canvas</option>
              {sizes.map((size) => (
                <option key={size.id} value={size.id}>
                  {size.name} ({size.width}×{size.height})
                </option>
              ))}
            </Select>
          </label>
        ) : null}
        <Button onClick={render} disabled={running || archived}>
          {running ? 'Rendering…' : 'Render'}
        </Button>
      </div>
      {problem ? (
        <ErrorState title="No file this time" code={problem.code}>
          {problem.message}
        </ErrorState>
      ) : null}
      {done && done.problems.length > 0 ? (
        <div aria-label="Problems of this render" role="group" className="space-y-1">
          <p className="text-sm font-medium">
            Problems of this render (
            <a className="text-indigo-700 underline" href={`/dashboard/renders/${done.jobId}`}>
              full report
            </a>
            )
          </p>
          <ReportProblemList problems={done.problems} omitted={done.omitted} compact />
        </div>
      ) : done?.status === 'succeeded' ? (
        <p className="text-sm text-slate-600" data-testid="test-render-clean">
          No problems found.{' '}
          <a className="text-indigo-700 underline" href={`/dashboard/renders/${done.jobId}`}>
            Full report
          </a>
        </p>
      ) : null}
      {done?.downloadUrl ? (
        <Notice>
          <span className="mr-3">Rendered ({done.mediaType}).</span>
          <a className={buttonClass('secondary')} href={done.downloadUrl} download data-testid="test-render-download">
            Download
          </a>
        </Notice>
      ) : null}
    </section>
  );
}
