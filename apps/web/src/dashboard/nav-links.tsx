'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { activeEntry, dashboardNav } from './nav.ts';
import { cn } from './ui/cn.ts';

/** The dashboard's links, the current page marked for sight and for screen readers. */
export function NavLinks({ layout }: { layout: 'sidebar' | 'menu' }) {
  const current = activeEntry(usePathname() ?? '');
  return (
    <ul className={cn(layout === 'sidebar' ? 'space-y-1' : 'grid gap-1 sm:grid-cols-2')}>
      {dashboardNav.map((entry) => {
        const active = entry === current;
        return (
          <li key={entry.href}>
            <Link
              href={entry.href}
              aria-current={active ? 'page' : undefined}
              className={cn(
                'block rounded-md px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                active ? 'bg-indigo-50 font-semibold text-indigo-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
              )}
            >
              {entry.label}
              {layout === 'menu' ? <span className="block text-xs font-normal text-slate-600">{entry.description}</span> : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
