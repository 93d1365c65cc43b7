'use client';
import { useState } from 'react';
import type { SessionAction } from '../../../src/dashboard/actions.ts';
import { ActionForm } from '../../../src/dashboard/ui/action-form.tsx';
import { Notice } from '../../../src/dashboard/ui/states.tsx';

interface TestOutcome {
  finished: boolean;
  statusCode: number | null;
  delivered: boolean;
}

/** Sends a sample render.succeeded event and says what the receiver answered. */
export function TestWebhookForm({ action, csrfToken, webhookId }: { action: SessionAction<TestOutcome>; csrfToken: string; webhookId: string }) {
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  return (
    <div>
      <ActionForm action={action} csrfToken={csrfToken} submitLabel="Send test event" pendingLabel="Sending test…" submitVariant="secondary" inline onSuccess={setOutcome}>
        <input type="hidden" name="webhook_id" value={webhookId} />
      </ActionForm>
      {outcome ? (
        <Notice className="mt-2">
          {!outcome.finished
            ? 'The test event is still on its way; its attempt will show in the delivery log.'
            : outcome.delivered
              ? `Delivered: your endpoint answered ${outcome.statusCode}.`
              : `Not delivered${outcome.statusCode ? `: your endpoint answered ${outcome.statusCode}` : ': no answer from your endpoint'}.`}
        </Notice>
      ) : null}
    </div>
  );
}
