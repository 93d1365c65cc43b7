import { requireSession } from '../../../src/dashboard/session.ts';
import { PageHeader } from '../../../src/dashboard/ui/card.tsx';

export const metadata = { title: 'Account' };

export default async function Account() {
  await requireSession();
  return <PageHeader title="Account" description="Email, plan and sign out." />;
}
