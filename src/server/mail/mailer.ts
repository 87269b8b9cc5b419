import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/env.ts';
import type { Logger } from '../logging/logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where a reply goes (the contact form's sender). Callers must refuse CR/LF before passing it. */
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export type MailConfig = Config['mail'];

/**
 * The mailer: the MAIL_* environment, unless the setup wizard (or later the admin area) stored a mail
 * driver in the settings; `current` reads that choice at send time, so a change applies at once.
 */
export async function createMailer(config: Config, logger: Logger, current: () => Promise<MailConfig | null> = async () => null): Promise<Mailer> {
  let cached: { key: string; mailer: Mailer } | null = null;
  return {
    async send(message) {
      const mail = (await current()) ?? config.mail;
      const key = JSON.stringify(mail);
      if (cached?.key !== key) cached = { key, mailer: await mailerFor(mail, config.dataDir, logger) };
      await cached.mailer.send(message);
    },
  };
}

/**
 * One mail configuration. The `log` driver appends each message as a JSON line to
 * DATA_DIR/mail/outbox.jsonl, so an operator without SMTP can still find a reset link. smtp, mailgun,
 * ses and postmark go over SMTP to the host (each of those providers offers an SMTP relay).
 */
export async function mailerFor(mail: MailConfig, dataDir: string, logger: Logger): Promise<Mailer> {
  if (mail.driver === 'log') {
    const outbox = path.join(dataDir, 'mail', 'outbox.jsonl');
    return {
      async send(message) {
        await mkdir(path.dirname(outbox), { recursive: true });
        await appendFile(outbox, JSON.stringify({ ...message, from: mail.from.address, sent_at: new Date().toISOString() }) + '\n');
        logger.info({ to: message.to, subject: message.subject }, 'mail written to outbox');
      },
    };
  }
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.encryption === 'ssl',
    requireTLS: mail.encryption === 'tls',
    ignoreTLS: mail.encryption === 'none',
    auth: mail.username ? { user: mail.username, pass: mail.password } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: { name: mail.from.name, address: mail.from.address }, ...message });
    },
  };
}
