// Pieces the Renders pages share: the sub-navigation, state badges, file sizes.
import type { GroupKind } from '@svc/core';
import Link from 'next/link';
import { groupsPath, rendersPath } from './ids.ts';
import { Badge, type BadgeTone } from '../../../src/dashboard/ui/badge.tsx';
import { cn } from '../../../src/dashboard/ui/cn.ts';
import { LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';


/** History and Groups, as tabs of the Renders section; the current one is marked for screen readers. */
export function RendersTabs({ current }: { current: 'history' | 'groups' }) {
  const tabs = [
    { key: 'history', href: rendersPath, label: 'History' },
    { key: 'groups', href: groupsPath, label: 'Batches, carousels and packs' },
  ] as const;
  return (
    <nav aria-label="Renders" className="mb-6 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-4">
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link
              href={tab.href}
              aria-current={tab.key === current ? 'page' : undefined}
              className={cn(
                'inline-block border-b-2 px-1 pb-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
                tab.key === current ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
              )}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const stateTones: Record<string, BadgeTone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'success',
  complete: 'success',
  partial: 'warning',
  failed: 'danger',
  cancelled: 'warning',
};

/** A job's, member's or group's state as a coloured badge (the word is always shown, never the colour alone). */
export function StateBadge({ state }: { state: string }) {
  return <Badge tone={stateTones[state] ?? 'neutral'}>{state}</Badge>;
}

export const groupKindLabels: Record<GroupKind, string> = { batch: 'Batch', carousel: 'Carousel', image_pack: 'Image pack' };

/** A file size in the browser's locale, in kB or MB. */
export function FileSize({ bytes }: { bytes: number }) {
  const megabytes = bytes >= 1_000_000;
  return (
    <LocalNumber
      value={megabytes ? bytes / 1_000_000 : bytes / 1_000}
      options={{ style: 'unit', unit: megabytes ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }}
    />
  );
}
