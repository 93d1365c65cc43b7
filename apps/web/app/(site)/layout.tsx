import { connection } from 'next/server';
import type { ReactNode } from 'react';

// The service's public pages keep their plain reading column; the dashboard lays itself out.
// They render per request, as every page does: their scripts carry that response's nonce
// (proxy.ts), which a page built ahead of time could not know.
export default async function SiteLayout({ children }: { children: ReactNode }) {
  await connection();
  return <div style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: '42rem', lineHeight: 1.5, padding: '0 1rem' }}>{children}</div>;
}
