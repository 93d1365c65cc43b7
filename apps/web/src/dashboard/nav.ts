// The dashboard's navigation, in one list: the shell's menu (wide and narrow) reads only this.

export interface NavEntry {
  href: string;
  label: string;
  /** A short line for screen readers and the narrow menu. */
  description: string;
}

export const dashboardNav: readonly NavEntry[] = [
  { href: '/dashboard', label: 'Overview', description: 'Credits, usage and recent failures' },
  { href: '/dashboard/templates', label: 'Templates', description: 'Saved templates, editor and gallery' },
  { href: '/dashboard/brand-kits', label: 'Brand kits', description: 'Colours, logos, fonts and tone' },
  { href: '/dashboard/ai', label: 'AI', description: 'Build and change templates by chat' },
  { href: '/dashboard/renders', label: 'Renders', description: 'History, batches, carousels and packs' },
  { href: '/dashboard/developers', label: 'Developers', description: 'API keys, webhooks and quick start' },
  { href: '/dashboard/account', label: 'Account', description: 'Email, plan and sign out' },
];

/** The entry a path belongs to: the longest href that is the path or a parent of it. */
export function activeEntry(pathname: string): NavEntry | undefined {
  return [...dashboardNav]
    .sort((a, b) => b.href.length - a.href.length)
    .find((entry) => pathname === entry.href || pathname.startsWith(`${entry.href}/`));
}
