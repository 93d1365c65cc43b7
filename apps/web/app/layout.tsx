import { connection } from 'next/server';
import type { ReactNode } from 'react';

export const metadata = { title: 'Rendering Service' };

// Every page renders per request: its scripts carry that response's nonce (proxy.ts), which a
// page built ahead of time could not know.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body style={{ margin: 0 }}>{children}</body>
    </html>
  );
}
