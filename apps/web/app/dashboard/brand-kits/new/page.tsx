import { requireSession } from '../../../../src/dashboard/session.ts';
import { Card, PageHeader } from '../../../../src/dashboard/ui/card.tsx';
import { createKit } from '../actions.ts';
import { KitForm } from '../kit-form.tsx';

export const metadata = { title: 'New brand kit' };

export default async function NewBrandKit() {
  const { csrfToken } = await requireSession();
  return (
    <>
      <PageHeader title="New brand kit" description="Name it and choose its colours; add a logo and fonts on the next page." />
      <Card aria-label="New brand kit">
        <KitForm action={createKit} csrfToken={csrfToken} submitLabel="Create brand kit" />
      </Card>
    </>
  );
}
