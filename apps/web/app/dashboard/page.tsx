import { requireSession } from '../../src/dashboard/session.ts';
import { PageHeader } from '../../src/dashboard/ui/card.tsx';

export const metadata = { title: 'Overview' };

export default async function Overview() {
  await requireSession();
  return <PageHeader title="Overview" description="Credits, usage and recent failures." />;
}
