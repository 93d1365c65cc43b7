'use client';
// Applies a build's draft: publishes it as a saved template (or its next version) and links to it.
import { useState } from 'react';
import { ActionForm } from '../../../../../src/dashboard/ui/action-form.tsx';
import { Notice } from '../../../../../src/dashboard/ui/states.tsx';
import { publishBuild } from '../../actions.ts';

export function PublishForm({ buildId, csrfToken }: { buildId: string; csrfToken: string }) {
  const [published, setPublished] = useState<{ templateId: string; version: number } | null>(null);
  return (
    <>
      <ActionForm action={publishBuild} csrfToken={csrfToken} submitLabel="Apply draft" pendingLabel="Saving…" onSuccess={(data) => setPublished(data)} inline>
        <input type="hidden" name="build_id" value={buildId} />
      </ActionForm>
      {published ? (
        <Notice className="mt-3">
          Saved as version {published.version} of{' '}
          <span className="font-mono" data-testid="published-template">
            {published.templateId}
          </span>
          .{' '}
          <a href={`/dashboard/ai/chat/${published.templateId}`} className="font-medium underline">
            Chat on it
          </a>
        </Notice>
      ) : null}
    </>
  );
}
