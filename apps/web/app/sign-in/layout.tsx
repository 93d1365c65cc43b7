import type { ReactNode } from 'react';
import '../../src/dashboard/styles.css';

export const metadata = { title: 'Sign in · Rendering Service' };

export default function SignInLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-start justify-center px-4 py-16 font-sans">
      <main className="w-full max-w-md">{children}</main>
    </div>
  );
}
