import { buttonClass } from '../dashboard/ui/button.tsx';
import { LogoMark } from './logo-mark.tsx';

const links = [
  { href: '/docs', label: 'API reference' },
  { href: '/status', label: 'Status' },
];

/** The public pages' header: the mark and name (home), the reference and status, and Sign in. */
export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <a href="/" className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <LogoMark />
          Rendering Service
        </a>
        <nav aria-label="Site" className="flex flex-wrap items-center gap-1 text-sm">
          {links.map((link) => (
            <a key={link.href} href={link.href} className="rounded-md px-3 py-2 font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900">
              {link.label}
            </a>
          ))}
          <a href="/sign-in" className={buttonClass('primary', 'ml-1')}>
            Sign in
          </a>
        </nav>
      </div>
    </header>
  );
}
