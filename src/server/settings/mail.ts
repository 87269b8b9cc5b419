import type { AppContext } from '../context.ts';
import type { MailConfig } from '../mail/mailer.ts';
import { isEncrypted, openSecret, sealSecret } from './secrets.ts';
import { getSettings, type MailSettings } from './service.ts';

/**
 * The stored mail settings keep the SMTP password sealed with the instance key, like every other
 * secret (secrets.ts); a value stored in plain text before still works, and is sealed when next saved.
 */
const MAIL_PASSWORD = 'setting:mail_password';

export async function sealMailPassword(ctx: AppContext, plain: string): Promise<string> {
  return plain === '' || isEncrypted(plain) ? plain : sealSecret(ctx, MAIL_PASSWORD, plain);
}

export async function openMailPassword(ctx: AppContext, stored: string): Promise<string> {
  return isEncrypted(stored) ? ((await openSecret(ctx, MAIL_PASSWORD, stored)) ?? '') : stored;
}

/** `m` with its password in plain text (openMailPassword). */
export function toMailConfig(m: MailSettings): MailConfig {
  return {
    driver: m.driver,
    host: m.host,
    port: m.port,
    username: m.username,
    password: m.password,
    encryption: m.encryption,
    from: { address: m.from_address, name: m.from_name },
  };
}

/** The mail driver stored in the settings (setup wizard, admin area), or null to use the environment. */
export async function storedMailConfig(ctx: AppContext): Promise<MailConfig | null> {
  const { mail } = await getSettings(ctx);
  return mail ? toMailConfig({ ...mail, password: await openMailPassword(ctx, mail.password) }) : null;
}
