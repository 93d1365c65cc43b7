'use client';
// A history row's less frequent actions behind a menu button: Delete, after asking (the same
// question and answer as the render's own page would give).
import { startTransition, useActionState, useState } from 'react';
import { csrfFieldName } from '../../../src/dashboard/csrf.ts';
import { ActionAnswer } from '../../../src/dashboard/ui/action-form.tsx';
import { ConfirmDialog } from '../../../src/dashboard/ui/dialog.tsx';
import { MenuButton } from '../../../src/dashboard/ui/menu.tsx';
import { removeRender } from './actions.ts';

export interface RenderRowMenuProps {
  renderId: string;
  /** The download name, as the row shows it. */
  name: string;
  /** What deleting does to this render (a succeeded one loses its file, others leave the history). */
  deleteEffect: string;
  csrfToken: string;
}

export function RenderRowMenu({ renderId, name, deleteEffect, csrfToken }: RenderRowMenuProps) {
  const [result, remove, pending] = useActionState(removeRender, null);
  const [asking, setAsking] = useState(false);
  return (
    <div>
      <MenuButton label={`Actions for ${name}`} items={[{ label: pending ? 'Deleting…' : 'Delete', tone: 'danger', disabled: pending, onSelect: () => setAsking(true) }]} />
      <ConfirmDialog
        open={asking}
        title={`Delete ${name}?`}
        confirmLabel="Delete render"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          startTransition(() => remove({ [csrfFieldName]: csrfToken, render_id: renderId }));
        }}
      >
        {deleteEffect}
      </ConfirmDialog>
      <ActionAnswer result={result} />
    </div>
  );
}
