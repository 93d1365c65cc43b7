'use client';

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
