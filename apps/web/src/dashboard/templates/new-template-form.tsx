'use client';

import { useId } from 'react';
import { ActionForm } from '../ui/action-form.tsx';
import { Input, Label, Select } from '../ui/field.tsx';
import { createTemplateAction } from './actions.ts';

/** A new template from a small skeleton: an HTML document or a canvas. Opens the editor when saved. */
export function NewTemplateForm({ csrfToken }: { csrfToken: string }) {
  const id = useId();
  return (
    <ActionForm action={createTemplateAction} csrfToken={csrfToken} submitLabel="Create template" pendingLabel="Creating…" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} name="name" maxLength={120} placeholder="Quarterly invoice" />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-mode`}>Kind</Label>
          <Select id={`${id}-mode`} name="input_mode" defaultValue="html">
            <option value="html">HTML document (PDF)</option>
            <option value="blank">Canvas (images, pages and sizes)</option>
          </Select>
        </div>
      </div>
    </ActionForm>
  );
}
