'use client';

import { useEffect, useRef, useState } from 'react';
import { previewDocument } from './preview-document.ts';

export interface PreviewFrameProps {
  /** the evaluated HTML from the preview use-case */
  html: string;
  title: string;
  /** the canvas size of a canvas template: the frame lays it out at that size and scales it down */
  canvas?: { width: number; height: number } | null;
  /** the width the frame is shown at, in CSS pixels (canvas templates only) */
  displayWidth?: number;
  className?: string;
}

/**
 * Customer HTML in a sandboxed frame: no script, no same origin, no forms, no network (a CSP
 * meta written first in the document). An empty sandbox attribute turns every permission off.
 */
export function PreviewFrame({ html, title, canvas, displayWidth = 640, className }: PreviewFrameProps) {
  if (canvas) {
    const scale = Math.min(1, displayWidth / canvas.width);
    return (
      <div className={className} style={{ width: canvas.width * scale, height: canvas.height * scale, overflow: 'hidden' }}>
        <iframe
          sandbox=""
          referrerPolicy="no-referrer"
          title={title}
          srcDoc={previewDocument(html)}
          style={{ width: canvas.width, height: canvas.height, border: 0, transform: `scale(${scale})`, transformOrigin: '0 0', background: '#fff' }}
        />
      </div>
    );
  }
  return (
    <iframe
      sandbox=""
      referrerPolicy="no-referrer"
      title={title}
      srcDoc={previewDocument(html)}
      className={className}
      style={{ width: '100%', height: '100%', minHeight: 480, border: 0, background: '#fff' }}
    />
  );
}

/** A canvas preview as wide as the box it sits in (at most the canvas itself), following its resizes. */
export function FittedPreviewFrame(props: Omit<PreviewFrameProps, 'displayWidth'>) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);
  return <div ref={box}>{width > 0 ? <PreviewFrame {...props} displayWidth={width} /> : null}</div>;
}
