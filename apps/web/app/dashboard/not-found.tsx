import Link from 'next/link';
import { buttonClass } from '../../src/dashboard/ui/button.tsx';
import { EmptyState } from '../../src/dashboard/ui/states.tsx';

// notFound() from a dashboard page (a template, kit or render that is not this account's, or gone).
export default function DashboardNotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <EmptyState
        title="There is nothing here"
        action={
          <Link href="/dashboard" className={buttonClass('secondary')}>
            Back to the overview
          </Link>
        }
      >
        It may have been deleted, or it belongs to another account.
      </EmptyState>
    </div>
  );
}
