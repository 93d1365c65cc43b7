'use client';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import Moveable from 'react-moveable';
import Selecto from 'react-selecto';
import { previewDocument } from '../preview-document.ts';
import { type Layer, readLayers } from './layers.ts';

export interface LayerMove {
  index: number;
  dx: number;
  dy: number;
}

export interface CanvasStageProps {
  /** the rendered, instrumented document */
  html: string;
  canvas: { width: number; height: number };
  pageId: string;
  layers: Layer[];
  onLayers: (layers: Layer[]) => void;
  selected: number[];
  onSelect: (indexes: number[]) => void;
  /** false while the render does not show the current source: nothing can be moved */
  interactive: boolean;
  onMove: (moves: LayerMove[]) => void;
  onResize: (move: LayerMove, width: number, height: number) => void;
}

const px = (value: string) => Number.parseFloat(value) || 0;

/**
 * The canvas page drawn in a frame (no script; the dashboard's origin, so its layout can be read)
 * under a layer of boxes the same size as the page's layers: react-selecto picks boxes, and
 * react-moveable drags, resizes and snaps them; the change is written to the source when a
 * gesture ends, and the frame redraws from the source.
 */
export default function CanvasStage({ html, canvas, pageId, layers, onLayers, selected, onSelect, interactive, onMove, onResize }: CanvasStageProps) {
  const box = useRef<HTMLDivElement>(null);
  // state, not a ref: the selection tool is made only once its box exists (without one it would listen on the whole page)
  const [overlay, setOverlay] = useState<HTMLDivElement | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const moveable = useRef<Moveable>(null);
  const [displayWidth, setDisplayWidth] = useState(0);
  const [generation, setGeneration] = useState(0);
  const [targets, setTargets] = useState<HTMLElement[]>([]);
  const [guides, setGuides] = useState<HTMLElement[]>([]);
  const scale = displayWidth > 0 ? Math.min(1, displayWidth / canvas.width) : 0;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setDisplayWidth(element.clientWidth));
    observer.observe(element);
    setDisplayWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const measure = () => {
    const document = frame.current?.contentDocument;
    if (!document || document.readyState !== 'complete') return;
    onLayers(readLayers(document, pageId));
    setGeneration((value) => value + 1);
  };
  // a new page of the same document is measured at once; a new document on its load event
  useEffect(measure, [pageId]);

  // boxes are drawn anew with each measurement; the selection follows by index
  useLayoutEffect(() => {
    const root = overlay;
    if (!root) return;
    const boxes = [...root.querySelectorAll<HTMLElement>('[data-layer]')];
    const chosen = new Set(selected);
    const next = boxes.filter((element) => chosen.has(Number(element.dataset.layer)));
    // the same boxes keep the same array: a new one would restart a gesture under way
    setTargets((current) => (current.length === next.length && next.every((element) => current.includes(element)) ? current : next));
    setGuides(boxes.filter((element) => !chosen.has(Number(element.dataset.layer))));
  }, [selected, generation, layers, overlay]);

  const moveOf = (element: HTMLElement | SVGElement): LayerMove | null => {
    const index = Number((element as HTMLElement).dataset.layer);
    const layer = layers.find((each) => each.index === index);
    if (!layer || scale === 0) return null;
    const style = (element as HTMLElement).style;
    return { index, dx: px(style.left) / scale - layer.x, dy: px(style.top) / scale - layer.y };
  };
  const moved = (move: LayerMove | null): move is LayerMove => move !== null && (Math.round(move.dx) !== 0 || Math.round(move.dy) !== 0);

  const width = canvas.width * scale;
  const height = canvas.height * scale;
  return (
    <div ref={box} className="w-full">
      {scale > 0 ? (
        <div className="relative mx-auto bg-white shadow" style={{ width, height }}>
          <iframe
            ref={frame}
            // no allow-scripts: nothing in the template runs; same origin only so the layout can be measured
            sandbox="allow-same-origin"
            referrerPolicy="no-referrer"
            title="Visual canvas"
            tabIndex={-1}
            aria-hidden="true"
            srcDoc={previewDocument(html)}
            onLoad={measure}
            style={{ width: canvas.width, height: canvas.height, border: 0, transform: `scale(${scale})`, transformOrigin: '0 0', background: '#fff', pointerEvents: 'none' }}
          />
          <div ref={setOverlay} className="svc-visual-overlay absolute inset-0 overflow-hidden" data-testid="visual-overlay">
            {layers.map((layer) => (
              <div
                key={`${generation}-${layer.index}`}
                data-layer={layer.index}
                data-testid={`layer-${layer.index}`}
                title={layer.label}
                className={`svc-layer absolute cursor-move outline-1 outline-offset-0 hover:outline hover:outline-indigo-400 ${selected.includes(layer.index) ? 'outline outline-indigo-600' : ''}`}
                style={{ left: layer.x * scale, top: layer.y * scale, width: layer.width * scale, height: layer.height * scale }}
              />
            ))}
          </div>
          <Moveable
            ref={moveable}
            target={interactive ? targets : []}
            draggable
            resizable={targets.length === 1}
            keepRatio={false}
            snappable
            snapThreshold={6}
            isDisplaySnapDigit
            snapDirections={{ top: true, left: true, bottom: true, right: true, center: true, middle: true }}
            elementSnapDirections={{ top: true, left: true, bottom: true, right: true, center: true, middle: true }}
            elementGuidelines={guides}
            verticalGuidelines={[0, width / 2, width]}
            horizontalGuidelines={[0, height / 2, height]}
            onDrag={(event) => {
              event.target.style.left = `${event.left}px`;
              event.target.style.top = `${event.top}px`;
            }}
            onDragEnd={(event) => {
              const move = event.isDrag ? moveOf(event.target) : null;
              if (moved(move)) onMove([move]);
            }}
            onDragGroup={(group) => {
              for (const event of group.events) {
                event.target.style.left = `${event.left}px`;
                event.target.style.top = `${event.top}px`;
              }
            }}
            onDragGroupEnd={(group) => {
              if (!group.isDrag) return;
              const moves = group.targets.map(moveOf).filter(moved);
              if (moves.length > 0) onMove(moves);
            }}
            onResize={(event) => {
              event.target.style.width = `${event.width}px`;
              event.target.style.height = `${event.height}px`;
              event.target.style.left = `${event.drag.left}px`;
              event.target.style.top = `${event.drag.top}px`;
            }}
            onResizeEnd={(event) => {
              const move = event.isDrag ? moveOf(event.target) : null;
              if (!move) return;
              const style = (event.target as HTMLElement).style;
              onResize(move, px(style.width) / scale, px(style.height) / scale);
            }}
          />
          {overlay ? (
            <Selecto
              container={overlay}
              dragContainer={overlay}
              selectableTargets={['.svc-visual-overlay .svc-layer']}
              hitRate={0}
              selectByClick
              selectFromInside={false}
              toggleContinueSelect={['shift']}
              ratio={0}
              onDragStart={(event) => {
                const target = event.inputEvent.target as Element;
                if (moveable.current?.isMoveableElement(target) || targets.some((each) => each === target || each.contains(target))) event.stop();
              }}
              onSelectEnd={(event) => {
                const indexes = event.selected.map((element) => Number((element as HTMLElement).dataset.layer));
                // the targets change in this render, so the drag below starts on the new selection
                setTargets(event.selected as HTMLElement[]);
                onSelect(indexes);
                if (event.isDragStart && interactive) {
                  event.inputEvent.preventDefault();
                  void moveable.current?.waitToChangeTarget().then(() => moveable.current?.dragStart(event.inputEvent));
                }
              }}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
