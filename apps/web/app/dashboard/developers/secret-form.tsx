'use client';
// A form whose answer carries a secret that is shown once (a new key, a new or rotated
// webhook signing secret): the secret stays on screen, with a copy button, until dismissed.
import { type ReactNode, useState } from 'react';
import type { SessionAction } from '../../../src/dashboard/actions.ts';
import { ActionForm } from '../../../src/dashboard/ui/action-form.tsx';
import { Button, type ButtonVariant } from '../../../src/dashboard/ui/button.tsx';
import { CopyButton } from '../../../src/dashboard/ui/copy-button.tsx';
import type { CreatedSecret } from './actions.ts';
import { useKeyCreated } from './quick-start.tsx';

export interface SecretFormProps {
  action: SessionAction<CreatedSecret>;
  csrfToken: string;
  submitLabel: string;
  submitVariant?: ButtonVariant;
  /** What the secret is, for the panel's heading ("API key", "Signing secret"). */
  secretName: string;
  children?: ReactNode;
  confirm?: { title: string; body: ReactNode; confirmLabel: string };
  inline?: boolean;
  className?: string;
  /** The secret is a new API key: the page's quick start shows it while the page is open. */
  isApiKey?: boolean;
}

export function SecretForm({ secretName, children, isApiKey, ...props }: SecretFormProps) {
  const [created, setCreated] = useState<CreatedSecret | null>(null);
  const keyCreated = useKeyCreated();
  const onSuccess = (secret: CreatedSecret) => {
    setCreated(secret);
    if (isApiKey) keyCreated(secret.secret);
  };
  return (
    <div className={props.className}>
      <ActionForm {...props} className={undefined} onSuccess={onSuccess} resetOnSuccess>
        {children}
      </ActionForm>
      {created ? (
        <div role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950" data-testid="secret-panel">
          <p className="font-medium">Your new {secretName}. Copy it now: it is shown only once.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded bg-white px-2 py-1 font-mono text-xs break-all text-slate-900 ring-1 ring-amber-300" data-testid="secret-value">
              {created.secret}
            </code>
            <CopyButton value={created.secret} />
            <Button variant="ghost" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
