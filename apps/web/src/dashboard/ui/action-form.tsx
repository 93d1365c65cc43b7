'use client';
// A form bound to a server action made with sessionAction: it sends the session's CSRF token,
// shows the pending state, and shows the answer (errors by their code; session expiry and a
// stale CSRF token with the way out).
import { type FormHTMLAttributes, type ReactNode, useActionState, useEffect, useRef, useState } from 'react';
import type { ActionResult, SessionAction } from '../actions.ts';
import { csrfFieldName } from '../csrf.ts';
import { Button, type ButtonVariant } from './button.tsx';
import { ConfirmDialog } from './dialog.tsx';
import { ErrorState, Notice } from './states.tsx';

export interface ActionFormProps<T> extends Omit<FormHTMLAttributes<HTMLFormElement>, 'action' | 'children' | 'onSubmit'> {
  action: SessionAction<T>;
  csrfToken: string;
  children?: ReactNode;
  submitLabel: string;
  pendingLabel?: string;
  submitVariant?: ButtonVariant;
  /** Shown after success (replaced by the next answer). */
  successMessage?: string;
  /** Called once per successful answer (client parents only). */
  onSuccess?: (data: T) => void;
  /** Asks before sending. */
  confirm?: { title: string; body: ReactNode; confirmLabel: string };
  /** Clears the form's fields after success. */
  resetOnSuccess?: boolean;
  /** The submit button sits beside the fields (a row of actions), not under them. */
  inline?: boolean;
}

export function ActionForm<T>({
  action,
  csrfToken,
  children,
  submitLabel,
  pendingLabel,
  submitVariant = 'primary',
  successMessage,
  onSuccess,
  confirm,
  resetOnSuccess,
  inline,
  className,
  ...formProps
}: ActionFormProps<T>) {
  const [result, formAction, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!result?.ok) return;
    onSuccess?.(result.data);
    if (resetOnSuccess) form.current?.reset();
    // only a new answer counts, not a new callback
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
  return (
    <form
      ref={form}
      action={formAction}
      className={className}
      onSubmit={(event) => {
        if (!confirm || confirmed.current) {
          confirmed.current = false;
          return;
        }
        event.preventDefault();
        setAsking(true);
      }}
      {...formProps}
    >
      <input type="hidden" name={csrfFieldName} value={csrfToken} />
      {children}
      <div className={inline ? 'flex flex-wrap items-center gap-3' : 'mt-3 flex flex-wrap items-center gap-3'}>
        <Button type="submit" variant={submitVariant} disabled={pending} aria-disabled={pending}>
          {pending ? (pendingLabel ?? `${submitLabel}…`) : submitLabel}
        </Button>
      </div>
      <ActionAnswer result={result} successMessage={successMessage} />
      {confirm ? (
        <ConfirmDialog
          open={asking}
          title={confirm.title}
          confirmLabel={confirm.confirmLabel}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            confirmed.current = true;
            form.current?.requestSubmit();
          }}
        >
          {confirm.body}
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

/** The answer of an action: its error (with what to do next) or a success notice. */
export function ActionAnswer<T>({ result, successMessage }: { result: ActionResult<T> | null; successMessage?: string }) {
  if (!result) return null;
  if (result.ok) return successMessage ? <Notice className="mt-3">{successMessage}</Notice> : null;
  return (
    <ErrorState className="mt-3" title={result.message} code={result.code}>
      {result.code === 'signed_out' ? <SignInAgainLink /> : null}
      {result.code === 'csrf_rejected' ? (
        <button type="button" className="font-medium underline" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      ) : null}
      {result.fields ? (
        <ul className="mt-1 list-disc pl-5">
          {Object.entries(result.fields).map(([field, reason]) => (
            <li key={field}>
              <span className="font-mono">{field}</span>: {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </ErrorState>
  );
}

function SignInAgainLink() {
  const here = typeof window === 'undefined' ? '/dashboard' : `${window.location.pathname}${window.location.search}`;
  return (
    <a className="font-medium underline" href={`/sign-in?next=${encodeURIComponent(here)}&reason=session_ended`}>
      Sign in again
    </a>
  );
}
