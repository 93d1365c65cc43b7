import type { ReactNode } from 'react';
import '../../src/dashboard/styles.css';
import { NavLinks } from '../../src/dashboard/nav-links.tsx';
import { requireSession } from '../../src/dashboard/session.ts';
import { LogoMark } from '../../src/site/logo-mark.tsx';
import { signOut } from '../../src/dashboard/sign-out-action.ts';
import { ActionForm } from '../../src/dashboard/ui/action-form.tsx';

export const dynamic = 'force-dynamic';
export const metadata = { title: { template: '%s · Dashboard · Rendering Service', default: 'Dashboard · Rendering Service' } };

// The shell around every dashboard page: a skip link, the header with the account and sign
// out, the navigation (a sidebar on wide screens, a disclosure menu on narrow ones) and the page.
// A page marked data-workspace (the template editor) gets the whole window on a large screen
// (styles.css).
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requireSession();
  return (
    <div className="dashboard-shell min-h-screen font-sans">
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-2 focus:left-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="dashboard-width mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <a href="/dashboard" className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <LogoMark />
            Rendering Service
          </a>
          <div className="flex items-center gap-3 text-sm text-slate-700">
            <span className="hidden sm:inline" data-testid="account-label">
              {session.email ?? 'No email address yet'}
            </span>
            <ActionForm action={signOut} csrfToken={session.csrfToken} submitLabel="Sign out" submitVariant="secondary" inline />
          </div>
        </div>
      </header>
      <div className="dashboard-width dashboard-body mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 md:flex-row">
        <nav aria-label="Dashboard" className="md:w-56 md:shrink-0">
          <details className="rounded-md border border-slate-200 bg-white md:hidden">
            <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-800">Menu</summary>
            <div className="border-t border-slate-200 p-2">
              <NavLinks layout="menu" />
            </div>
          </details>
          <div className="hidden md:block">
            <NavLinks layout="sidebar" />
          </div>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
