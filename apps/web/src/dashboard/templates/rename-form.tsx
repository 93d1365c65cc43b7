'use client';

import { useRouter } from 'next/navigation';
import { useId } from 'react';
import { ActionForm } from '../ui/action-form.tsx';
import { Input, Label } from '../ui/field.tsx';
import { renameTemplateAction } from './actions.ts';

/** The template's name and tags (comma-separated); tags feed the list's tag filter. */
export function RenameForm({ csrfToken, templateId, name, tags }: { csrfToken: string; templateId: string; name: string | null; tags: string[] }) {
  const router = useRouter();
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        Name and tags
      </h2>
      <ActionForm action={renameTemplateAction} csrfToken={csrfToken} submitLabel="Save name and tags" successMessage="Saved." onSuccess={() => router.refresh()}>
        <input type="hidden" name="templateId" value={templateId} />
        <div className="grid gap-3">
          <div className="space-y-1">
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input id={`${id}-name`} name="name" defaultValue={name ?? ''} maxLength={120} />
          </div>
          <div className="space-y-1">
            <Label htmlFor={`${id}-tags`}>Tags</Label>
            <Input id={`${id}-tags`} name="tags" defaultValue={tags.join(', ')} aria-describedby={`${id}-tags-hint`} />
            <p id={`${id}-tags-hint`} className="text-xs text-slate-600">
              Separated by commas; up to 20, each up to 40 characters.
            </p>
          </div>
        </div>
      </ActionForm>
    </section>
  );
}
