import { connection } from 'next/server';
import type { ReactNode } from 'react';
import '../../src/dashboard/styles.css';
import { SiteHeader } from '../../src/site/site-header.tsx';

// The front door (home, status, API reference) in the dashboard's look. Its pages render per
// request, as every page does: their scripts carry that response's nonce (proxy.ts).
export default async function FrontLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <div className="flex min-h-screen flex-col font-sans">
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-2 focus:left-2">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 py-4 text-sm text-slate-600">
          <a href="/docs" className="hover:text-slate-900">API reference</a>
          <a href="/v1/openapi.json" className="hover:text-slate-900">OpenAPI document</a>
          <a href="/status" className="hover:text-slate-900">Status</a>
          <a href="/testimonials" className="hover:text-slate-900">Send a testimonial</a>
        </div>
      </footer>
    </div>
  );
}
