// The pages of a sign-in link: plain HTML with no script, in the dashboard's colours, so the
// link works before (and without) any of the dashboard's code. The link's secret sits in the
// address, so no page sends a referrer and none is cached.

const style = `
  body { margin: 0; font-family: ui-sans-serif, system-ui, sans-serif; background: #f8fafc; color: #0f172a; }
  main { max-width: 28rem; margin: 4rem auto; padding: 0 1rem; }
  .brand { margin: 0; font-size: .875rem; font-weight: 600; color: #4338ca; }
  h1 { margin: .25rem 0 1.5rem; font-size: 1.5rem; font-weight: 600; letter-spacing: -.01em; }
  .card { background: #fff; border: 1px solid #e2e8f0; border-radius: .5rem; padding: 1.5rem; box-shadow: 0 1px 2px rgb(0 0 0 / .05); }
  p { margin: 0 0 1rem; font-size: .875rem; line-height: 1.5; color: #334155; }
  .who { font-weight: 600; color: #0f172a; word-break: break-all; }
  button { font: inherit; font-size: .875rem; font-weight: 600; color: #fff; background: #4f46e5; border: 0; border-radius: .375rem; padding: .5rem 1rem; cursor: pointer; }
  button:hover { background: #4338ca; }
  button:focus-visible { outline: 2px solid #4338ca; outline-offset: 2px; }`;

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function document(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escape(title)} · Rendering Service</title><style>${style}</style></head>` +
    `<body><main><p class="brand">Rendering Service</p><h1>${escape(title)}</h1><div class="card">${body}</div></main></body></html>`;
}

export const pageHeaders = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

export interface ConfirmPage {
  /** Whom the link signs in: an address or an account id. */
  accountLabel: string;
  newAccount: boolean;
  /** The form's own address (the link's path). */
  action: string;
  formToken: string;
}

/** The page a sign-in link opens: whom it signs in, and the button that does it. */
export function confirmPage({ accountLabel, newAccount, action, formToken }: ConfirmPage): string {
  const what = newAccount ? 'Create the free account of' : 'Sign in as';
  return document(
    'Sign in',
    `<p>${what} <span class="who">${escape(accountLabel)}</span> in this browser?</p>` +
      '<p>If you did not ask for this link, close this page: nothing happens until you press the button.</p>' +
      `<form method="post" action="${escape(action)}"><input type="hidden" name="form_token" value="${escape(formToken)}">` +
      '<button type="submit">Sign in</button></form>',
  );
}

/** A page that only says something: an unusable link, a refusal, a failure. */
export function messagePage(title: string, text: string): string {
  return document(title, `<p>${escape(text)}</p>`);
}
