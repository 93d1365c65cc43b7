import type { ReactNode } from 'react';

export const metadata = { title: 'Rendering Service' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: '42rem', lineHeight: 1.5 }}>{children}</body>
    </html>
  );
}
