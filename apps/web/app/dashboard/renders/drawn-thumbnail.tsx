'use client';
// A PDF's first page that the worker is drawing now (the history asked for it when it showed
// the row): the PDF mark until the page is there, then the page. It asks again a few times,
// spaced out, and stops when the row leaves the page.
import { type ReactNode, useEffect, useState } from 'react';

/** How often, and how many times, the row asks whether the page is drawn (about half a minute in all). */
const askEveryMs = 1500;
const asks = 20;

export function DrawnThumbnail({ src, alt, children }: { src: string; alt: string; children: ReactNode }) {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (left: number) => {
      // a drawn page answers 200 and stays in the browser's cache for the image below; not yet drawn answers 404, never cached
      const response = await fetch(src, { credentials: 'same-origin' }).catch(() => null);
      if (stopped) return;
      if (response?.ok) setDrawn(true);
      else if (left > 1) timer = setTimeout(() => void ask(left - 1), askEveryMs);
    };
    timer = setTimeout(() => void ask(asks), askEveryMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [src]);
  if (!drawn) return children;
  // eslint-disable-next-line @next/next/no-img-element -- a private, session-checked thumbnail route, not a static asset
  return <img src={src} alt={alt} className="max-h-full max-w-full object-contain" data-testid="render-thumbnail" />;
}
