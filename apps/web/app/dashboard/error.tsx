'use client';
import { Button } from '../../src/dashboard/ui/button.tsx';
import { ErrorState } from '../../src/dashboard/ui/states.tsx';

// A page that failed to load: say so, with the request's digest to quote, and a retry.
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">This page could not be loaded</h1>
      <ErrorState title="Something went wrong on our side." code={error.digest ? `internal_error (${error.digest})` : 'internal_error'}>
        Try again in a moment. If it keeps failing, quote the code above.
      </ErrorState>
      <Button onClick={reset}>Try again</Button>
    </div>
  );
}
