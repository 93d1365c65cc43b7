/**
 * The mailbox an address delivers to, for the rules that allow one of something per person
 * (one free account, a daily number of sign-in mails): lower case, without a "+tag" (which
 * every large provider delivers to the untagged mailbox), and for Gmail without dots and
 * with googlemail.com read as gmail.com (Gmail ignores both). Addresses themselves are kept
 * as given (lower case); only these rules compare mailboxes.
 */
export function mailboxOf(email: string): string {
  const lower = email.toLowerCase();
  const at = lower.lastIndexOf('@');
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    domain = 'gmail.com';
    local = local.replaceAll('.', '') || local;
  }
  return `${local}@${domain}`;
}
