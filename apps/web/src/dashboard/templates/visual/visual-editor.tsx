'use client';

import type { SizeVariant } from '@svc/contracts';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { previewSourceAction } from '../actions.ts';
import { callAction } from '../call-action.ts';
import { canvasOf, canvasPages } from '../source-facts.ts';
import CanvasStage, { type LayerMove } from './canvas-stage.tsx';
import { emptyHistory, type History, recordEdit, redoStep, undoStep } from './history.ts';
import { type Alignment, Inspector, type VisualBrandKit } from './inspector.tsx';
import { dataFields, type Layer, moveStyle, resizeStyle } from './layers.ts';
import { applyEdits, attributeValue, brandFontFaceEdit, fieldExpression, instrumentSource, setAttributeEdit, setStyleEdit, setTextEdit, type SourceElement, sourceElements, styleValue, textContentOf, type TextEdit } from './source-map.ts';

export interface VisualEditorProps {
  csrfToken: string;
  source: string;
  onSourceChange: (source: string) => void;
  sizes: SizeVariant[];
  onSizesChange: (sizes: SizeVariant[]) => void;
  data: Record<string, unknown>;
  brandKit: VisualBrandKit | null;
}

/** The visual view redraws this long after the last change (a gesture's edit, or typing in the code view). */
const renderDelayMs = 150;
const original = 'original';
const boundExpression = /^\s*\{\{\s*([A-Za-z_][\w.]*)\s*\}\}\s*$/;

type Render = { state: 'loading' } | { state: 'shown'; html: string; source: string } | { state: 'failed'; message: string; html: string | null; source: string | null };

/**
 * The visual editor of a canvas template: the canvas page rendered from the source with the
 * sample data, its layers selected, moved, resized and aligned on the canvas, and text, data
 * fields, colours and fonts set from a panel. Each change is a small edit of the source (a
 * saved size's own source when one is chosen), undoable here; the code view shows the same text.
 */
export default function VisualEditor({ csrfToken, source, onSourceChange, sizes, onSizesChange, data, brandKit }: VisualEditorProps) {
  const [target, setTarget] = useState(original);
  const size = sizes.find((each) => each.id === target) ?? null;
  const edited = size ? size.source : source;
  const canvas = canvasOf(edited) ?? (size ? { width: size.width, height: size.height } : null);
  const pages = canvasPages(edited);
  const [chosenPage, setChosenPage] = useState<string | null>(null);
  const pageId = pages.find((page) => page.id === chosenPage)?.id ?? pages[0]?.id ?? null;
  const [render, setRender] = useState<Render>({ state: 'loading' });
  const [layers, setLayers] = useState<Layer[]>([]);
  const [selected, setSelected] = useState<number[]>([]);
  const [history, setHistory] = useState<History>(emptyHistory);
  const [notice, setNotice] = useState<string | null>(null);
  const request = useRef(0);
  const id = useId();

  const renderData = useMemo(() => ({ ...data, ...(size?.data_overrides ?? {}) }), [data, size?.data_overrides]);
  const fields = useMemo(() => dataFields(renderData), [renderData]);
  const elements = useMemo(() => sourceElements(edited), [edited]);

  // the canvas is drawn from the source (marked with each element's index), with the sample data
  useEffect(() => {
    const id = ++request.current;
    const timer = setTimeout(async () => {
      const result = await callAction(previewSourceAction, csrfToken, { source: instrumentSource(edited), data: renderData });
      if (id !== request.current) return;
      setRender((current) => {
        const last = current.state === 'loading' ? null : current;
        if (result.ok && 'html' in result.data) return { state: 'shown', html: result.data.html, source: edited };
        const message = result.ok ? ('error' in result.data ? result.data.error.message : 'The canvas could not be drawn.') : result.message;
        return { state: 'failed', message, html: last?.html ?? null, source: last?.source ?? null };
      });
    }, renderDelayMs);
    return () => clearTimeout(timer);
  }, [edited, renderData, csrfToken]);

  const fresh = render.state === 'shown' && render.source === edited;
  const textOf = (name: string) => (name === original ? source : (sizes.find((each) => each.id === name)?.source ?? null));
  const write = (name: string, text: string) => {
    if (name === original) onSourceChange(text);
    else onSizesChange(sizes.map((each) => (each.id === name ? { ...each, source: text, status: 'edited' } : each)));
  };

  /** One undoable change of the edited source, made of edits against its current text. */
  const brandFontFace = (current: string, fontFamily: string) => {
    const index = brandKit?.fonts.findIndex((family) => fontFamily.startsWith(`"${family.replaceAll('"', '')}"`)) ?? -1;
    return index === -1 ? null : brandFontFaceEdit(current, brandKit!.fonts[index]!, index);
  };
  const change = (makeEdits: (text: string, elementAt: (index: number) => SourceElement | undefined) => (TextEdit | null)[]) => {
    const edits = makeEdits(edited, (index) => elements[index]).filter((edit): edit is TextEdit => edit !== null);
    if (edits.length === 0) return;
    const after = applyEdits(edited, edits);
    if (after === edited) return;
    write(target, after);
    setHistory((current) => recordEdit(current, { target, before: edited, after }));
    setNotice(null);
  };

  const step = (direction: 'undo' | 'redo') => {
    const found = (direction === 'undo' ? undoStep : redoStep)(history, textOf);
    if (!found) {
      if ((direction === 'undo' ? history.past : history.future).length > 0) {
        setHistory(emptyHistory);
        setNotice('The source changed in the code view, so the visual edits before it can no longer be undone here.');
      }
      return;
    }
    write(found.entry.target, direction === 'undo' ? found.entry.before : found.entry.after);
    setHistory(found.history);
    if (found.entry.target !== target) setTarget(found.entry.target);
  };

  const layerAt = (index: number) => layers.find((layer) => layer.index === index);
  const move = (moves: LayerMove[]) =>
    change((text, elementAt) =>
      moves.map(({ index, dx, dy }) => {
        const layer = layerAt(index);
        const element = elementAt(index);
        return layer && element ? setStyleEdit(text, element, moveStyle(layer, dx, dy)) : null;
      }),
    );
  const resize = ({ index, dx, dy }: LayerMove, width: number, height: number) =>
    change((text, elementAt) => {
      const layer = layerAt(index);
      const element = elementAt(index);
      return [layer && element ? setStyleEdit(text, element, resizeStyle(layer, dx, dy, width, height)) : null];
    });

  const chosen = selected.map(layerAt).filter((layer): layer is Layer => layer !== undefined);
  const align = (alignment: Alignment) => {
    if (!canvas || chosen.length === 0) return;
    const bounds =
      chosen.length === 1
        ? { left: 0, top: 0, right: canvas.width, bottom: canvas.height }
        : {
            left: Math.min(...chosen.map((layer) => layer.x)),
            top: Math.min(...chosen.map((layer) => layer.y)),
            right: Math.max(...chosen.map((layer) => layer.x + layer.width)),
            bottom: Math.max(...chosen.map((layer) => layer.y + layer.height)),
          };
    move(
      chosen.map((layer) => {
        const horizontal = { left: bounds.left - layer.x, centre: (bounds.left + bounds.right) / 2 - (layer.x + layer.width / 2), right: bounds.right - (layer.x + layer.width) };
        const vertical = { top: bounds.top - layer.y, middle: (bounds.top + bounds.bottom) / 2 - (layer.y + layer.height / 2), bottom: bounds.bottom - (layer.y + layer.height) };
        return { index: layer.index, dx: alignment in horizontal ? horizontal[alignment as keyof typeof horizontal] : 0, dy: alignment in vertical ? vertical[alignment as keyof typeof vertical] : 0 };
      }),
    );
  };

  const single = chosen.length === 1 ? chosen[0]! : null;
  const singleElement = single ? elements[single.index] : undefined;
  const text = singleElement ? textContentOf(edited, singleElement) : null;
  const boundSource = singleElement ? (single?.kind === 'image' ? attributeValue(edited, singleElement, 'src') : text) : null;
  const boundField = boundSource ? (boundExpression.exec(boundSource)?.[1] ?? null) : null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('input, textarea, select')) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && (key === 'z' || key === 'y')) {
      event.preventDefault();
      step(key === 'y' || event.shiftKey ? 'redo' : 'undo');
      return;
    }
    const arrows: Record<string, [number, number]> = { arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, -1], arrowdown: [0, 1] };
    const arrow = arrows[key];
    if (arrow && chosen.length > 0 && fresh) {
      event.preventDefault();
      const by = event.shiftKey ? 10 : 1;
      move(chosen.map((layer) => ({ index: layer.index, dx: arrow[0] * by, dy: arrow[1] * by })));
    }
  };

  const status = render.state === 'failed' ? `The canvas could not be drawn: ${render.message}` : fresh ? 'Up to date' : 'Updating…';
  const shownHtml = render.state === 'loading' ? null : render.html;

  return (
    <div className="flex min-h-full flex-col" onKeyDown={onKeyDown} data-testid="visual-editor">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-2 text-sm">
        <label htmlFor={`${id}-size`}>Canvas size</label>
        <select
          id={`${id}-size`}
          value={target}
          onChange={(event) => {
            setTarget(event.target.value);
            setSelected([]);
            setLayers([]);
          }}
          className="rounded-md border border-slate-300 px-2 py-1"
        >
          <option value={original}>Original{canvasOf(source) ? ` ${canvasOf(source)!.width}×${canvasOf(source)!.height}` : ''}</option>
          {sizes.map((each) => (
            <option key={each.id} value={each.id}>
              {each.name} {each.width}×{each.height}
            </option>
          ))}
        </select>
        {pages.length > 1 ? (
          <>
            <label htmlFor={`${id}-page`}>Canvas page</label>
            <select id={`${id}-page`} value={pageId ?? ''} onChange={(event) => (setChosenPage(event.target.value), setSelected([]))} className="rounded-md border border-slate-300 px-2 py-1">
              {pages.map((page) => (
                <option key={page.id} value={page.id}>
                  {page.name ?? page.id}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <Button variant="secondary" onClick={() => step('undo')} disabled={history.past.length === 0} aria-keyshortcuts="Control+Z">
          Undo
        </Button>
        <Button variant="secondary" onClick={() => step('redo')} disabled={history.future.length === 0} aria-keyshortcuts="Control+Shift+Z">
          Redo
        </Button>
        <span role="status" aria-live="polite" className="ml-auto text-xs text-slate-600" data-testid="visual-status">
          {status}
        </span>
      </div>
      {notice ? (
        <p role="status" className="border-b border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
      {/* the canvas keeps its height; the pane scrolls to the panel below it */}
      <div className="shrink-0 bg-slate-100 p-3">
        {!canvas || !pageId ? (
          <p className="py-16 text-center text-sm text-slate-600">
            The visual editor edits canvas pages: declare the canvas size and mark a page with data-svc-page to use it.
          </p>
        ) : shownHtml === null ? (
          <p className="py-16 text-center text-sm text-slate-600">Drawing the canvas…</p>
        ) : (
          <CanvasStage
            html={shownHtml}
            canvas={canvas}
            pageId={pageId}
            layers={layers}
            onLayers={setLayers}
            selected={selected}
            onSelect={setSelected}
            interactive={fresh}
            onMove={move}
            onResize={resize}
          />
        )}
      </div>
      <div className="grid gap-3 border-t border-slate-200 p-3">
        <section aria-label="Layers">
          <h3 className="mb-1 text-sm font-semibold">Layers</h3>
          <ul className="max-h-40 space-y-0.5 overflow-auto text-sm">
            {layers.map((layer) => (
              <li key={layer.index}>
                <button
                  type="button"
                  aria-pressed={selected.includes(layer.index)}
                  onClick={(event) => setSelected(event.shiftKey ? toggle(selected, layer.index) : [layer.index])}
                  className="w-full truncate rounded px-2 py-0.5 text-left hover:bg-slate-100 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-900"
                >
                  <span className="text-slate-600">{layer.kind === 'text' ? 'Text' : layer.kind === 'image' ? 'Image' : 'Shape'}</span> {layer.label}
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Selected layer">
          <Inspector
            layers={chosen}
            text={text}
            boundField={boundField}
            fields={fields}
            brandKit={brandKit}
            colour={singleElement ? styleValue(edited, singleElement, 'color') : null}
            fill={singleElement ? styleValue(edited, singleElement, 'background-color') : null}
            font={singleElement ? styleValue(edited, singleElement, 'font-family') : null}
            disabled={!fresh}
            onText={(value) => single && change((current, elementAt) => [setTextEdit(elementAt(single.index)!, value)])}
            onBind={(path) =>
              single &&
              change((current, elementAt) => {
                const element = elementAt(single.index)!;
                return [single.kind === 'image' ? setAttributeEdit(current, element, 'src', fieldExpression(path)) : setTextEdit(element, fieldExpression(path))];
              })
            }
            onStyle={(property, value) =>
              single &&
              change((current, elementAt) => [
                setStyleEdit(current, elementAt(single.index)!, { [property]: value }),
                // a brand kit font loads in renders only through an @font-face of its own
                ...(property === 'font-family' ? [brandFontFace(current, value)] : []),
              ])
            }
            onAlign={align}
          />
          {!brandKit ? (
            <p className="mt-3 text-xs text-slate-600">
              Name a brand kit in the source (<code>&lt;meta name=&quot;svc-brand-kit&quot; content=&quot;kit_…&quot;&gt;</code>) to choose from its colours and fonts here.
            </p>
          ) : null}
        </section>
      </div>
    </div>
  );
}

function toggle(list: number[], index: number): number[] {
  return list.includes(index) ? list.filter((each) => each !== index) : [...list, index];
}

