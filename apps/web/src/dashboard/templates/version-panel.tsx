'use client';

import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { Select } from '../ui/field.tsx';
import { LocalDate } from '../ui/local-format.tsx';
import { ErrorState } from '../ui/states.tsx';
import { compareVersionsAction } from './actions.ts';
import { callAction } from './call-action.ts';

export interface VersionPanelProps {
  csrfToken: string;
  templateId: string;
  versions: { version: number; createdAt: string }[];
  current: number;
  data: Record<string, unknown>;
  /** the edited version's canvas: comparisons render at that size, documents at a page-like one */
  canvas: { width: number; height: number } | null;
}

/** A document is compared at about an A4 page at 96 dpi. */
const pageSize = { width: 794, height: 1123 };
const maxSide = { width: 1600, height: 2400 };

interface Comparison {
  versions: [number, number];
  images: [string, string];
  difference: string;
  changedShare: number;
}

/** Version history: open any version, and compare two side by side with the changed pixels marked. */
export function VersionPanel({ csrfToken, templateId, versions, current, data, canvas }: VersionPanelProps) {
  const id = useId();
  const newest = versions[0]?.version ?? 1;
  const [left, setLeft] = useState(String(versions[1]?.version ?? newest));
  const [right, setRight] = useState(String(newest));
  // a version saved meanwhile: the comparison offered first is again the newest with the one before
  const [seenNewest, setSeenNewest] = useState(newest);
  if (seenNewest !== newest) {
    setSeenNewest(newest);
    setLeft(String(versions[1]?.version ?? newest));
    setRight(String(newest));
  }
  const [comparing, setComparing] = useState(false);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [problem, setProblem] = useState<{ message: string; code: string } | null>(null);

  const compare = async () => {
    setComparing(true);
    setProblem(null);
    const base = canvas ?? pageSize;
    const scale = Math.min(1, maxSide.width / base.width, maxSide.height / base.height);
    const size = { width: Math.max(320, Math.round(base.width * scale)), height: Math.max(200, Math.round(base.height * scale)) };
    const pair: [number, number] = [Number(left), Number(right)];
    const result = await callAction(compareVersionsAction, csrfToken, { templateId, versions: pair, data, ...size });
    setComparing(false);
    if (!result.ok) return setProblem({ message: result.message, code: result.code });
    if ('error' in result.data) return setProblem(result.data.error);
    setComparison({ versions: pair, ...result.data });
  };

  const versionOptions = versions.map((item) => (
    <option key={item.version} value={item.version}>
      Version {item.version}
    </option>
  ));
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Version history
      </h2>
      <ol className="space-y-1 text-sm" aria-label="Versions, newest first">
        {versions.map((item) => (
          <li key={item.version} className="flex items-center justify-between gap-2">
            <span>
              Version {item.version} · <LocalDate value={item.createdAt} />
            </span>
            {item.version === current ? (
              <span className="text-xs text-slate-600">being edited</span>
            ) : (
              <a className="text-indigo-700 underline" href={`/dashboard/templates/${templateId}?version=${item.version}`}>
                Open version {item.version}
              </a>
            )}
          </li>
        ))}
      </ol>
      {versions.length < 2 ? (
        <p className="text-sm text-slate-600">Save a second version to compare two versions' renders.</p>
      ) : (
        <div className="flex flex-wrap items-end gap-2 border-t border-slate-200 pt-3">
          <label className="text-sm">
            Compare
            <Select value={left} onChange={(event) => setLeft(event.target.value)} className="w-32">
              {versionOptions}
            </Select>
          </label>
          <label className="text-sm">
            with
            <Select value={right} onChange={(event) => setRight(event.target.value)} className="w-32">
              {versionOptions}
            </Select>
          </label>
          <Button onClick={compare} disabled={comparing || left === right}>
            {comparing ? 'Rendering both…' : 'Compare renders'}
          </Button>
        </div>
      )}
      <p className="text-xs text-slate-600">Both versions are rendered with the data of the Data tab. Comparisons use no credits, but need a balance that could pay for two renders; the images are shown here only, never kept in your renders.</p>
      {problem ? (
        <ErrorState title="The versions could not be compared" code={problem.code}>
          {problem.message}
        </ErrorState>
      ) : null}
      {comparison ? (
        <div className="space-y-2" data-testid="version-comparison">
          <p role="status" className="text-sm">
            {comparison.changedShare === 0 ? 'No visible difference.' : `${(comparison.changedShare * 100).toFixed(1)}% of the pixels changed (red).`}
          </p>
          <div className="grid grid-cols-2 gap-2">
            <figure>
              <img src={comparison.images[0]} alt={`Render of version ${comparison.versions[0]}`} className="w-full border border-slate-200" />
              <figcaption className="text-xs text-slate-600">Version {comparison.versions[0]}</figcaption>
            </figure>
            <figure>
              <img src={comparison.images[1]} alt={`Render of version ${comparison.versions[1]}`} className="w-full border border-slate-200" />
              <figcaption className="text-xs text-slate-600">Version {comparison.versions[1]}</figcaption>
            </figure>
            <figure>
              <img src={comparison.difference} alt="Changed pixels marked in red" className="w-full border border-slate-200" />
              <figcaption className="text-xs text-slate-600">Changes</figcaption>
            </figure>
          </div>
        </div>
      ) : null}
    </section>
  );
}
