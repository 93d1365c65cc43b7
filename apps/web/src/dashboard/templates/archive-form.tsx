'use client';

import { useRouter } from 'next/navigation';
import { ActionForm } from '../ui/action-form.tsx';
import { archiveTemplateAction } from './actions.ts';

/** Archive (with a confirmation) or restore a template. */
export function ArchiveForm({ csrfToken, templateId, archived }: { csrfToken: string; templateId: string; archived: boolean }) {
  const router = useRouter();
  return (
    <ActionForm
      action={archiveTemplateAction}
      csrfToken={csrfToken}
      submitLabel={archived ? 'Restore' : 'Archive'}
      submitVariant={archived ? 'secondary' : 'danger'}
      onSuccess={() => router.refresh()}
      confirm={archived ? undefined : { title: 'Archive this template?', body: 'It stays readable, but takes no new versions or renders until you restore it.', confirmLabel: 'Archive' }}
      className="[&>div]:mt-0"
    >
      <input type="hidden" name="templateId" value={templateId} />
      <input type="hidden" name="restore" value={archived ? 'true' : 'false'} />
    </ActionForm>
  );
}
