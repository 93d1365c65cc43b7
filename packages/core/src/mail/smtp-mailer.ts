import type { Mailer } from '../ports/mailer.ts';
import type { EmailSettings } from '../shared/config.ts';

/**
 * Email over SMTP (nodemailer): one pooled transport per process, made with the first message
 * (a process that sends none never loads the library).
 */
export function smtpMailer(settings: EmailSettings): Mailer {
  let transport: ReturnType<typeof import('nodemailer').createTransport> | undefined;
  return {
    async send({ to, subject, text }) {
      if (!transport) {
        const { default: nodemailer } = await import('nodemailer');
        transport ??= nodemailer.createTransport(settings.smtpUrl, { from: settings.from });
      }
      await transport.sendMail({ from: settings.from, to, subject, text });
    },
    close: () => transport?.close(),
  };
}
