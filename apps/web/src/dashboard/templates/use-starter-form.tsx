'use client';

import { ActionForm } from '../ui/action-form.tsx';
import { copyStarterAction } from './actions.ts';

/** "Use this template": copies the starter into the account and opens it in the editor. */
export function UseStarterForm({ csrfToken, starterId, starterName }: { csrfToken: string; starterId: string; starterName: string }) {
  return (
    <ActionForm action={copyStarterAction} csrfToken={csrfToken} submitLabel="Use this template" pendingLabel="Copying…" aria-label={`Use the ${starterName} template`}>
      <input type="hidden" name="starterId" value={starterId} />
    </ActionForm>
  );
}
