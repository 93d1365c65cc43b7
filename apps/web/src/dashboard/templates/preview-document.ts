/**
 * The policy of the live preview's document: nothing may load from the network. Images and
 * fonts only from data: URLs (what the service itself inlines), inline styles, no script, no
 * form target, no base URL. The iframe's sandbox (no allow-scripts, no allow-same-origin, no
 * allow-forms) holds the same line a second time.
 */
export const previewContentSecurityPolicy = [
  "default-src 'none'",
  'img-src data:',
  'font-src data:',
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Links would navigate the frame itself, to the network: the preview shows them, inert. */
const inertLinks = '<style>a[href],area[href]{pointer-events:none}</style>';

const doctype = /^\s*<!doctype[^>]*>/i;

/**
 * Puts the policy first in the evaluated HTML, so the parser applies it before anything that
 * could load (a meta policy only governs what comes after it). After a doctype, so the page
 * keeps its standards mode; before <html>, which the parser then merges into the implied one.
 */
export function previewDocument(html: string): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="${previewContentSecurityPolicy}">${inertLinks}`;
  const match = doctype.exec(html);
  if (!match) return `${head}${html}`;
  return `${match[0]}${head}${html.slice(match[0].length)}`;
}
