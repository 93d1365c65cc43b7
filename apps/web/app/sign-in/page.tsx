import { redirect } from 'next/navigation';
import { serviceContext } from '../../src/http/context.ts';
import { safeReturnPath, type SignInReason, signInLinkCommand } from '../../src/dashboard/paths.ts';
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
  const emailConfigured = serviceContext().mailer !== null;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-semibold text-indigo-700">Rendering Service</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">Sign in</h1>
      </div>
      {reason ? reason.tone === 'error' ? <ErrorState title={reason.text} /> : <Notice>{reason.text}</Notice> : null}
      {emailConfigured ? (
        <Card>
          <p className="mb-4 text-sm text-slate-700">
            We email you a one-use link; there is no password. A new address gets a free account when its link is first opened.
          </p>
          <SignInForm next={next} />
        </Card>
      ) : (
        <Card data-testid="email-not-set-up">
          <h2 className="text-base font-semibold text-slate-900">Email is not set up on this installation</h2>
          <p className="mt-2 text-sm text-slate-700">
            Sign-in links cannot be emailed here. Whoever runs this installation can print one for your account in its checkout, with your account&apos;s id in place of ID:
          </p>
          <pre className="mt-3 overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100">
            <code>{signInLinkCommand()}</code>
          </pre>
          <p className="mt-3 text-sm text-slate-700">Open the link it prints in this browser; it works once, for 15 minutes. The demo account&apos;s link is printed when the service first starts.</p>
        </Card>
      )}
    </div>
  );
}
