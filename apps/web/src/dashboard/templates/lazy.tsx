'use client';

import dynamic from 'next/dynamic';

/** Shown while a heavy editor part loads; the same box, so the page does not jump. */
function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="flex h-full min-h-40 items-center justify-center text-sm text-slate-500">
      Loading {label}…
    </div>
  );
}

// CodeMirror and the schema form run only in the browser and stay out of the first-load bundle.
export const LazyCodeEditor = dynamic(() => import('./code-editor.tsx'), { ssr: false, loading: () => <Loading label="editor" /> });
export const LazySchemaForm = dynamic(() => import('./schema-form.tsx'), { ssr: false, loading: () => <Loading label="form" /> });
// The visual editor (react-moveable, react-selecto) measures the canvas in the browser only.
export const LazyVisualEditor = dynamic(() => import('./visual/visual-editor.tsx'), { ssr: false, loading: () => <Loading label="visual editor" /> });
