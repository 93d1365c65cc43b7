import nodemailer from 'nodemailer';
import type { Mailer } from '../ports/mailer.ts';
import type { EmailSettings } from '../shared/config.ts';

/** Email over SMTP (nodemailer): one pooled transport per process. */
export function smtpMailer(settings: EmailSettings): Mailer {
  const transport = nodemailer.createTransport(settings.smtpUrl, { from: settings.from });
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from: settings.from, to, subject, text });
    },
    close: () => transport.close(),
  };
}
