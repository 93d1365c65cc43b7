'use client';

import type { SizeVariant } from '@svc/contracts';
import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/field.tsx';
import { ErrorState } from '../ui/states.tsx';
import { type AdaptOutcome, adaptSizesAction } from './actions.ts';
import { callAction } from './call-action.ts';
import { PreviewFrame } from './preview-frame.tsx';
import { canvasPages, sizeIdOf } from './source-facts.ts';

export interface CanvasPanelProps {
  csrfToken: string;
  source: string;
  data: Record<string, unknown>;
  canvas: { width: number; height: number } | null;
  sizes: SizeVariant[];
  onSizesChange: (sizes: SizeVariant[]) => void;
}

const presets = [
  { name: 'Square post', width: 1080, height: 1080 },
  { name: 'Story', width: 1080, height: 1920 },
  { name: 'Landscape', width: 1920, height: 1080 },
  { name: 'Link preview', width: 1200, height: 630 },
];

type Adapted = Extract<AdaptOutcome, { sizes: unknown }>['sizes'][number];

/** Canvas pages of the source, its saved sizes, and adapting the canvas to new sizes with thumbnails. */
export function CanvasPanel({ csrfToken, source, data, canvas, sizes, onSizesChange }: CanvasPanelProps) {
  const pages = canvasPages(source);
  const id = useId();
  const [width, setWidth] = useState('1080');
  const [height, setHeight] = useState('1080');
  const [requested, setRequested] = useState<{ name: string; width: number; height: number }[]>([]);
  const [adapting, setAdapting] = useState(false);
  const [adapted, setAdapted] = useState<{ name: string; result: Adapted }[]>([]);
  const [problem, setProblem] = useState<{ message: string; code: string } | null>(null);

  const addRequested = (name: string, w: number, h: number) => {
    if (requested.some((size) => size.width === w && size.height === h)) return;
    setRequested([...requested, { name, width: w, height: h }].slice(0, 20));
  };

  const adapt = async () => {
    setAdapting(true);
    setProblem(null);
    const result = await callAction(adaptSizesAction, csrfToken, { source, data, sizes: requested.map(({ width: w, height: h }) => ({ width: w, height: h })) });
    setAdapting(false);
    if (!result.ok) return setProblem({ message: result.message, code: result.code });
    if ('error' in result.data) return setProblem(result.data.error);
    setAdapted(result.data.sizes.map((size, index) => ({ name: requested[index]?.name ?? `${size.width}×${size.height}`, result: size })));
  };

  const keep = (name: string, size: Adapted) => {
    if (!('source' in size)) return;
    const taken = sizes.map((saved) => saved.id);
    onSizesChange([...sizes, { id: sizeIdOf(name, taken), name, width: size.width, height: size.height, status: 'auto', source: size.source }]);
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Canvas, pages and sizes
      </h2>
      <div className="grid gap-4">
        <div>
          <h3 className="text-sm font-semibold">Canvas pages</h3>
          <p className="text-sm text-slate-600">{canvas ? `Each page is ${canvas.width}×${canvas.height} pixels.` : 'Declare <meta name="svc-canvas" content="WIDTHxHEIGHT"> to make this a canvas.'}</p>
          {pages.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No pages yet: mark an element with data-svc-page="id".</p>
          ) : (
            <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm" aria-label="Canvas pages">
              {pages.map((page) => (
                <li key={page.id}>
                  <span className="font-mono">{page.id}</span>
                  {page.name ? <span className="text-slate-600"> — {page.name}</span> : null}
                </li>
              ))}
            </ol>
          )}
        </div>
        <div>
          <h3 className="text-sm font-semibold">Saved sizes</h3>
          {sizes.length === 0 ? (
            <p className="text-sm text-slate-600">No saved sizes. Adapt the canvas below and keep the sizes you like; they are saved with the next version.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm" aria-label="Saved sizes">
              {sizes.map((size) => (
                <li key={size.id} className="flex items-center justify-between gap-2">
                  <span>
                    {size.name} <span className="text-slate-600">({size.width}×{size.height}, {size.id})</span>
                  </span>
                  <Button variant="ghost" onClick={() => onSizesChange(sizes.filter((other) => other.id !== size.id))} aria-label={`Remove size ${size.name}`}>
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>

      <div className="space-y-3 border-t border-slate-200 pt-4">
        <h3 className="text-sm font-semibold">Adapt to other sizes</h3>
        <div className="flex flex-wrap items-end gap-2">
          {presets.map((preset) => (
            <Button key={preset.name} variant="secondary" onClick={() => addRequested(preset.name, preset.width, preset.height)}>
              + {preset.name} {preset.width}×{preset.height}
            </Button>
          ))}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-sm">
            Width
            <Input type="number" min={320} max={7680} value={width} onChange={(event) => setWidth(event.target.value)} className="w-28" />
          </label>
          <label className="text-sm">
            Height
            <Input type="number" min={200} max={4320} value={height} onChange={(event) => setHeight(event.target.value)} className="w-28" />
          </label>
          <Button variant="secondary" onClick={() => addRequested(`Custom ${width}×${height}`, Number(width), Number(height))}>
            Add size
          </Button>
        </div>
        {requested.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span>Sizes to adapt to:</span>
            {requested.map((size) => (
              <span key={`${size.width}x${size.height}`} className="rounded bg-slate-100 px-2 py-0.5">
                {size.width}×{size.height}
              </span>
            ))}
            <Button onClick={adapt} disabled={adapting || !canvas}>
              {adapting ? 'Adapting…' : 'Adapt'}
            </Button>
            <Button variant="ghost" onClick={() => setRequested([])}>
              Clear
            </Button>
          </div>
        ) : null}
        {problem ? (
          <ErrorState title="The canvas could not be adapted" code={problem.code}>
            {problem.message}
          </ErrorState>
        ) : null}
        {adapted.length > 0 ? (
          <ul className="grid grid-cols-2 gap-3" aria-label="Adapted sizes">
            {adapted.map(({ name, result }) => (
              <li key={`${result.width}x${result.height}`} className="space-y-2 rounded-md border border-slate-200 p-2 text-sm">
                <p className="font-medium">
                  {name} <span className="text-slate-600">{result.width}×{result.height}</span>
                </p>
                {'source' in result ? (
                  <>
                    {result.html ? (
                      <PreviewFrame html={result.html} title={`Thumbnail ${result.width}×${result.height}`} canvas={{ width: result.width, height: result.height }} displayWidth={150} className="border border-slate-200" />
                    ) : (
                      <p className="text-slate-600">No thumbnail: the data does not fill this size.</p>
                    )}
                    <Button variant="secondary" onClick={() => keep(name, result)}>
                      Keep as saved size
                    </Button>
                  </>
                ) : (
                  <p className="text-red-800">{result.errorCode === 'resize_no_layout' ? 'Nothing on this canvas can be laid out.' : 'This source cannot be adapted.'}</p>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
