// The security headers of every dashboard and site page (proxy.ts sets them per request).

/** The page's paths where the template editor's schema form runs: its validator (Ajv) compiles schemas to functions. */
const schemaFormPaths = /^\/dashboard\/templates\/(?!gallery$)[^/]+$/;

export interface PageHeaderOptions {
  /** A fresh random value for this response: the only inline and loaded scripts that run carry it. */
  nonce: string;
  /** The page's path. */
  path: string;
  /** SVC_PUBLIC_URL: over https, browsers are told to keep to https. */
  publicUrl: string | undefined;
}

/**
 * The Content-Security-Policy of a page. Scripts run only with this response's nonce (Next
 * puts it on its own scripts, and 'strict-dynamic' lets them load the app's chunks); nothing
 * may frame a page, post a form elsewhere or load a plugin. Styles may be inline (React's
 * style attributes, and the previews' documents, which inherit this policy and tighten it).
 */
export function contentSecurityPolicy({ nonce, path, publicUrl }: PageHeaderOptions): string {
  const scripts = [`'self'`, `'nonce-${nonce}'`, `'strict-dynamic'`];
  if (schemaFormPaths.test(path)) scripts.push(`'unsafe-eval'`);
  const directives = [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob: data:",
    "frame-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (isHttps(publicUrl)) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** Every header a page answers with, the policy included. */
export function pageSecurityHeaders(options: PageHeaderOptions): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(options),
    // a sign-in link's page holds the link's secret in its address: it names itself to nobody
    'referrer-policy': options.path.startsWith('/auth/') ? 'no-referrer' : 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(isHttps(options.publicUrl) ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

const isHttps = (url: string | undefined) => url !== undefined && url.startsWith('https://');
