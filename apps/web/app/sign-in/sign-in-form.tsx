'use client';
import { useActionState } from 'react';
import { Button } from '../../src/dashboard/ui/button.tsx';
import { Field, Input } from '../../src/dashboard/ui/field.tsx';
import { ErrorState, Notice } from '../../src/dashboard/ui/states.tsx';
import { requestSignIn } from './actions.ts';

export function SignInForm({ next }: { next?: string }) {
  const [result, action, pending] = useActionState(requestSignIn, null);
  if (result?.ok) {
    return (
      <Notice>
        <p className="font-medium">Check your email</p>
        <p className="mt-1">
          If <span className="font-mono">{result.email}</span> can sign in, a link is on its way. It works once, for 15 minutes.
        </p>
      </Notice>
    );
  }
  return (
    <form action={action} className="space-y-4">
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Field id="email" label="Email address">
        <Input id="email" name="email" type="email" autoComplete="email" required aria-invalid={result?.ok === false ? true : undefined} />
      </Field>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? 'Sending…' : 'Email me a sign-in link'}
      </Button>
      {result && !result.ok ? <ErrorState title={result.message} code={result.code} /> : null}
    </form>
  );
}
