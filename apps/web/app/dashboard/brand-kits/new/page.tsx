import { brandKitLimits, listBrandKits } from '@svc/core';
import Link from 'next/link';
import { customerMessage } from '../../../../src/dashboard/error-text.ts';
import { requireSession } from '../../../../src/dashboard/session.ts';
import { Card, PageHeader } from '../../../../src/dashboard/ui/card.tsx';
import { ErrorState } from '../../../../src/dashboard/ui/states.tsx';
import { createKit } from '../actions.ts';
import { KitForm } from '../kit-form.tsx';

export const metadata = { title: 'New brand kit' };

export default async function NewBrandKit() {
  const { ctx, accountId, plan, csrfToken } = await requireSession();
  // the same count create checks (archived kits included); create itself still decides under its lock
  const held = await listBrandKits(ctx, { accountId, status: 'all', limit: brandKitLimits[plan] });
  const full = held.items.length >= brandKitLimits[plan];
  return (
    <>
      <PageHeader title="New brand kit" description="Name it and choose its colours; add a logo and fonts on the next page." />
      <Card aria-label="New brand kit">
        {full ? (
          <ErrorState title={customerMessage('brand_kit_limit')} code="brand_kit_limit">
            The {plan} plan holds {brandKitLimits[plan]} {brandKitLimits[plan] === 1 ? 'kit' : 'kits'}, archived ones included. Change an existing kit on the{' '}
            <Link href="/dashboard/brand-kits?status=all" className="font-medium underline">
              Brand kits
            </Link>{' '}
            page, or move to a larger plan.
          </ErrorState>
        ) : (
          <KitForm action={createKit} csrfToken={csrfToken} submitLabel="Create brand kit" />
        )}
      </Card>
    </>
  );
}
