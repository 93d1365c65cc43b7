'use client';
import dynamic from 'next/dynamic';

// Scalar draws in the browser only (it measures and routes on the page).
const ApiReference = dynamic(() => import('./api-reference.tsx'), {
  ssr: false,
  loading: () => <p className="mx-auto max-w-6xl px-4 py-12 text-sm text-slate-600">Loading the API reference…</p>,
});

export function ApiReferenceLoader() {
  return <ApiReference />;
}
