import { brandKitLimits, listBrandKits } from '@svc/core';
import Link from 'next/link';
import { requireSession } from '../../../src/dashboard/session.ts';
import { Badge } from '../../../src/dashboard/ui/badge.tsx';
import { buttonClass } from '../../../src/dashboard/ui/button.tsx';
import { Card, CardHeader, PageHeader } from '../../../src/dashboard/ui/card.tsx';
import { LocalDate, LocalNumber } from '../../../src/dashboard/ui/local-format.tsx';
import { EmptyState } from '../../../src/dashboard/ui/states.tsx';
import { Swatches } from './swatches.tsx';

export const metadata = { title: 'Brand kits' };

const filters = [
  { value: 'active', label: 'Active' },
  { value: 'archived', label: 'Archived' },
  { value: 'all', label: 'All' },
] as const;
type Filter = (typeof filters)[number]['value'];

export default async function BrandKits({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, accountId, plan } = await requireSession();
  const asked = (await searchParams).status;
  const status: Filter = filters.some((filter) => filter.value === asked) ? (asked as Filter) : 'active';
  // the plan's count includes archived kits, so it is read over all of them
  const [shown, all] = await Promise.all([listBrandKits(ctx, { accountId, status, limit: 100 }), listBrandKits(ctx, { accountId, status: 'all', limit: 100 })]);
  const limit = brandKitLimits[plan];
  const used = all.items.length;
  const full = used >= limit;
  return (
    <>
      <PageHeader
        title="Brand kits"
        description="Colours, logos, fonts and tone that templates and AI builds use."
        actions={
          full ? null : (
            <Link href="/dashboard/brand-kits/new" className={buttonClass('primary')}>
              New brand kit
            </Link>
          )
        }
      />
      <Card aria-labelledby="kits-heading">
        <CardHeader
          id="kits-heading"
          title="Your kits"
          description={
            <span data-testid="kit-limit">
              <LocalNumber value={used} /> of <LocalNumber value={limit} /> kits used on the {plan} plan (archived kits count).
              {full ? ' Archive does not free a place: upgrade the plan for more kits.' : ''}
            </span>
          }
        />
        <nav aria-label="Filter kits" className="mb-4 flex flex-wrap gap-2">
          {filters.map((filter) => (
            <Link
              key={filter.value}
              href={`/dashboard/brand-kits?status=${filter.value}`}
              aria-current={filter.value === status ? 'page' : undefined}
              className={buttonClass(filter.value === status ? 'primary' : 'secondary')}
            >
              {filter.label}
            </Link>
          ))}
        </nav>
        {shown.items.length === 0 ? (
          <EmptyState
            title={status === 'archived' ? 'No archived kits' : 'No brand kits yet'}
            action={
              status !== 'archived' && !full ? (
                <Link href="/dashboard/brand-kits/new" className={buttonClass('primary')}>
                  Create a brand kit
                </Link>
              ) : undefined
            }
          >
            {status === 'archived' ? 'Kits you archive appear here and can be restored.' : 'A kit gives templates your colours, logo and fonts.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="Brand kits">
            {shown.items.map((kit) => (
              <li key={kit.id} className="flex flex-wrap items-center justify-between gap-3 py-4" data-testid="brand-kit">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link href={`/dashboard/brand-kits/${kit.id}`} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                      {kit.name}
                    </Link>
                    {kit.archivedAt ? <Badge tone="warning">archived</Badge> : <Badge tone="success">active</Badge>}
                  </div>
                  <p className="mt-1 text-xs text-slate-600">
                    Changed <LocalDate value={kit.updatedAt} /> · <span className="font-mono">{kit.id}</span>
                  </p>
                </div>
                <Swatches colours={kit.colours} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
