/** One plain-text message to one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing email. Absent (null in the context) when delivery is not configured. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}
