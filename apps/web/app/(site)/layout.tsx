import type { ReactNode } from 'react';

// The service's public pages keep their plain reading column; the dashboard lays itself out.
export default function SiteLayout({ children }: { children: ReactNode }) {
  return <div style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: '42rem', lineHeight: 1.5, padding: '0 1rem' }}>{children}</div>;
}
