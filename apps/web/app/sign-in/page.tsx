import { redirect } from 'next/navigation';
import { safeReturnPath, type SignInReason } from '../../src/dashboard/paths.ts';
import { lookupSession } from '../../src/dashboard/session.ts';
import { Card } from '../../src/dashboard/ui/card.tsx';
import { ErrorState, Notice } from '../../src/dashboard/ui/states.tsx';
import { SignInForm } from './sign-in-form.tsx';

export const dynamic = 'force-dynamic';

const reasons: Record<SignInReason, { tone: 'error' | 'notice'; text: string }> = {
  session_ended: { tone: 'error', text: 'Your session ended. Sign in again to continue where you were.' },
  signed_out: { tone: 'notice', text: 'You are signed out.' },
};

export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const next = typeof query.next === 'string' ? safeReturnPath(query.next) : undefined;
  const reason = typeof query.reason === 'string' && query.reason in reasons ? reasons[query.reason as SignInReason] : undefined;
  const session = await lookupSession();
  if (session.state === 'signed_in') redirect(next ?? '/dashboard');
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-semibold text-indigo-700">Rendering Service</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">Sign in</h1>
      </div>
      {reason ? reason.tone === 'error' ? <ErrorState title={reason.text} /> : <Notice>{reason.text}</Notice> : null}
      <Card>
        <p className="mb-4 text-sm text-slate-700">
          We email you a one-use link; there is no password. A new address gets a free account when its link is first opened.
        </p>
        <SignInForm next={next} />
      </Card>
      <p className="text-sm text-slate-600">
        No email delivery on this installation? An operator can print a sign-in link for an account:{' '}
        <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800">npm run svc -- account sign-in-link ACCOUNT_ID</code>
      </p>
    </div>
  );
}
