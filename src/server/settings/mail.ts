import type { AppContext } from '../context.ts';
import type { MailConfig } from '../mail/mailer.ts';
import { getSettings, type MailSettings } from './service.ts';

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
  return mail ? toMailConfig(mail) : null;
}
