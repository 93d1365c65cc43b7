'use client';
// Retry of a group's failed members. Unlike a plain ActionForm it stays mounted when the retry
// makes the group run again (and the button goes), so the answer stays on screen.
import { useActionState } from 'react';
import type { SessionAction } from '../../../../../src/dashboard/actions.ts';
import { csrfFieldName } from '../../../../../src/dashboard/csrf.ts';
import { ActionAnswer } from '../../../../../src/dashboard/ui/action-form.tsx';
import { Button } from '../../../../../src/dashboard/ui/button.tsx';

export function RetryForm({ action, csrfToken, groupId, retryable }: { action: SessionAction<null>; csrfToken: string; groupId: string; retryable: boolean }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction}>
      <input type="hidden" name={csrfFieldName} value={csrfToken} />
      <input type="hidden" name="group_id" value={groupId} />
      {retryable ? (
        <Button type="submit" variant="secondary" disabled={pending} aria-disabled={pending}>
          {pending ? 'Retrying…' : 'Retry failed members'}
        </Button>
      ) : null}
      <ActionAnswer result={result} successMessage="Failed members are queued again." />
    </form>
  );
}
