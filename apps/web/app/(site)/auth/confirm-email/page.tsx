'use client';
// The page an emailed confirmation link opens. The token is in the fragment (never sent to a
// server, so never in a log or a Referer); the page sends it with the session's CSRF token.
import { useEffect, useState } from 'react';

export default function ConfirmEmail() {
  const [message, setMessage] = useState('Confirming your email address...');
  useEffect(() => {
    const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
    history.replaceState(null, '', window.location.pathname);
    if (!token) return setMessage('This link is incomplete. Open the link from the email again.');
    (async () => {
      const me = await fetch('/v1/me', { credentials: 'same-origin' });
      if (!me.ok) return setMessage('Sign in first, in this browser, then open the link again.');
      const { csrf_token } = await me.json();
      const answer = await fetch('/v1/auth/email/confirm', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf_token },
        body: JSON.stringify({ token }),
      });
      if (!answer.ok) return setMessage('This link cannot be used: it expired, was used, or belongs to another browser session.');
      const { next } = await answer.json();
      window.location.replace(next);
    })().catch(() => setMessage('Something went wrong. Try the link again.'));
  }, []);
  return (
    <main>
      <h1>Email address</h1>
      <p>{message}</p>
    </main>
  );
}
