// A real SMTP server on 127.0.0.1 for the tests: every message it receives is written, raw, to
// a directory, where any test file reads it back (the web process under test sends to it).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { until } from './until.ts';

export interface TestSmtpServer {
  url: string;
  close(): Promise<void>;
}

export async function startSmtpServer(mailDir: string): Promise<TestSmtpServer> {
  rmSync(mailDir, { recursive: true, force: true });
  mkdirSync(mailDir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        writeFileSync(join(mailDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/** Every message received so far for `to`, oldest first. */
export async function mailsTo(mailDir: string, to: string): Promise<ReceivedMail[]> {
  const found: ReceivedMail[] = [];
  for (const name of readdirSync(mailDir).sort()) {
    const parsed = await simpleParser(readFileSync(join(mailDir, name)));
    const recipients = [parsed.to].flat().flatMap((field) => field?.value ?? []).map((entry) => entry.address?.toLowerCase());
    if (recipients.includes(to.toLowerCase())) found.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
  }
  return found;
}

/** Waits for the `count`th message to `to` and returns it. */
export async function nextMailTo(mailDir: string, to: string, count = 1): Promise<ReceivedMail> {
  let mails: ReceivedMail[] = [];
  await until(async () => (mails = await mailsTo(mailDir, to)).length >= count, 15_000);
  return mails[count - 1] as ReceivedMail;
}
