import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/env.ts';
import type { Logger } from '../logging/logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The `log` driver appends each message as a JSON line to DATA_DIR/mail/outbox.jsonl, so an operator
 * without SMTP can still find a reset link. smtp, mailgun, ses and postmark go over SMTP to MAIL_HOST
 * (each of those providers offers an SMTP relay).
 */
export async function createMailer(config: Config, logger: Logger): Promise<Mailer> {
  const { mail } = config;
  if (mail.driver === 'log') {
    const outbox = path.join(config.dataDir, 'mail', 'outbox.jsonl');
    await mkdir(path.dirname(outbox), { recursive: true });
    return {
      async send(message) {
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
  });
  return {
    async send(message) {
      await transport.sendMail({ from: { name: mail.from.name, address: mail.from.address }, ...message });
    },
  };
}
