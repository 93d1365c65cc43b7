'use client';
// The service's own testimonial form: the ALTCHA widget solves a proof-of-work challenge from
// /v1/captcha/challenge in the browser, and its payload goes along as captcha_token.
import { createElement, type FormEvent, useEffect, useState } from 'react';

export default function Testimonials() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    // the widget is a browser-only web component
    void import('altcha');
  }, []);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const answer = await fetch('/v1/testimonials', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: form.get('name'),
        company: form.get('company'),
        quote: form.get('quote'),
        permission: form.get('permission') === 'on',
        captcha_token: form.get('captcha_token') ?? '',
      }),
    });
    setMessage(answer.status === 201 ? 'Thank you! We read every testimonial before anything is published.' : 'That did not work. Check the fields and try again.');
  }

  return (
    <main>
      <h1>Tell us how it went</h1>
      <form onSubmit={send} style={{ display: 'grid', gap: '0.75rem' }}>
        <label>
          Name <input name="name" required minLength={2} maxLength={80} />
        </label>
        <label>
          Company <input name="company" required minLength={2} maxLength={120} />
        </label>
        <label>
          Your words <textarea name="quote" required minLength={20} maxLength={1000} rows={5} />
        </label>
        <label>
          <input type="checkbox" name="permission" required /> You may publish this after review
        </label>
        {createElement('altcha-widget', { challenge: '/v1/captcha/challenge', name: 'captcha_token' })}
        <button type="submit">Send</button>
      </form>
      <p role="status">{message}</p>
    </main>
  );
}
