import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { Body } from '../../http/endpoint.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { takeHourly } from '../../http/budget.ts';
import { validate } from '../../http/validate.ts';
import { mailerFor, type MailConfig } from '../../mail/mailer.ts';
import { openMailPassword, sealMailPassword, toMailConfig } from '../../settings/mail.ts';
import { getSettings, type MailSettings, type Settings } from '../../settings/service.ts';
import { MAIL_DRIVERS, MAIL_ENCRYPTIONS } from '../../setup/schemas.ts';
import { requireAdmin } from '../guard.ts';
import { applySettings, parseGroupUpdate, text, wholeNumber } from './group.ts';

/**
 * The mail driver (SPEC §9: smtp, mailgun, ses, postmark, log; tls, ssl or none), stored in the
 * `mail` setting, which overrides the MAIL_* environment and is read at send time (mailer.ts).
 * The password is write-only: never answered, and an update without one (or with an empty one)
 * keeps the stored password.
 */
const FIELDS = {
  driver: z.enum(MAIL_DRIVERS, { error: `The mail driver must be one of ${MAIL_DRIVERS.join(', ')}.` }),
  host: text('mail host', 255),
  port: wholeNumber('mail port', 1, 65535),
  username: text('mail username', 255),
  password: z.string({ error: 'The mail password must be text.' }).max(255, 'The mail password may not be greater than 255 characters.'),
  encryption: z.enum(MAIL_ENCRYPTIONS, { error: 'The encryption must be tls, ssl or none.' }),
  from_address: z
    .string({ error: 'The sender address must be text.' })
    .trim()
    .toLowerCase()
    .max(255, 'The sender address may not be greater than 255 characters.')
    .refine((v) => v === '' || z.email().safeParse(v).success, 'The sender address must be a valid email address.'),
  from_name: text('sender name', 120).min(1, 'The sender name field is required.'),
};

/** What the fields must make together: a real driver needs a host and a sender address (log only writes mails down). */
const COMPLETE = z
  .object({ driver: z.string(), host: z.string(), from_address: z.string() })
  .refine((v) => v.driver === 'log' || /^[A-Za-z0-9.-]+$/.test(v.host), { message: 'The mail host must be a host name or address.', path: ['host'] })
  .refine((v) => v.driver === 'log' || v.from_address !== '', { message: 'The sender address field is required.', path: ['from_address'] });

const TEST_MAIL = z.object({
  test_email: z
    .string({ error: 'The test address field is required.' })
    .trim()
    .min(1, 'The test address field is required.')
    .max(255, 'The test address may not be greater than 255 characters.')
    .pipe(z.email('The test address must be a valid email address.')),
});

function fromEnvironment(mail: MailConfig): MailSettings {
  return { driver: mail.driver, host: mail.host, port: mail.port, username: mail.username, password: mail.password, encryption: mail.encryption, from_address: mail.from.address, from_name: mail.from.name };
}

/** The mail settings in effect: the stored ones (the password still sealed), else the environment's. */
function current(ctx: AppContext, s: Settings): MailSettings {
  return s.mail ?? fromEnvironment(ctx.config.mail);
}

function present(ctx: AppContext, s: Settings) {
  const { password, ...mail } = current(ctx, s);
  return {
    data: { id: 'email', type: 'settings', attributes: { ...mail, password_set: password !== '', source: s.mail ? ('settings' as const) : ('environment' as const) } },
    meta: { drivers: MAIL_DRIVERS, encryptions: MAIL_ENCRYPTIONS },
  };
}

export type EmailSettings = ReturnType<typeof present>;

/** The stored (or environment) settings with the update's fields over them, checked as a whole; the password in plain text. */
async function merge(ctx: AppContext, s: Settings, fields: Body): Promise<MailSettings> {
  const input = parseGroupUpdate(FIELDS, fields);
  const base = current(ctx, s);
  const password = input.password ? input.password : await openMailPassword(ctx, base.password);
  const merged: MailSettings = { ...base, ...input, password } as MailSettings;
  validate(COMPLETE, merged);
  return merged;
}

export async function getEmailSettings(ctx: AppContext, user: User): Promise<EmailSettings> {
  requireAdmin(user);
  return present(ctx, await getSettings(ctx));
}

export async function updateEmailSettings(ctx: AppContext, user: User, body: Body): Promise<EmailSettings> {
  requireAdmin(user);
  const s = await getSettings(ctx);
  const mail = await merge(ctx, s, body);
  // Saving while the environment's settings are in effect stores them: from then on this form is what counts.
  await applySettings(ctx, user, 'email', s, { mail: { ...mail, password: await sealMailPassword(ctx, mail.password) } });
  return present(ctx, await getSettings(ctx));
}

/**
 * Sends a test mail to `test_email` with the form's mail fields over the saved ones (so a setting
 * can be tried before it is saved); saves nothing. Counted in the admin's hourly mail budget. A
 * transport that refuses is a 422 naming the reason.
 */
export async function sendTestMail(ctx: AppContext, user: User, body: Body): Promise<{ data: { sent_to: string } }> {
  requireAdmin(user);
  const { test_email: to, ...fields } = body;
  const { test_email } = validate(TEST_MAIL, { test_email: to });
  const settings = await getSettings(ctx);
  const mail = await merge(ctx, settings, fields);
  const budget = await takeHourly(ctx, `mail:user:${user.id}`, 1, settings.mail_per_user_per_hour);
  if (!budget.ok) throw new AppError(429, `You can send at most ${settings.mail_per_user_per_hour} emails an hour.`, { code: 'mail_limit_exceeded', headers: { 'Retry-After': String(budget.retryAfter) } });
  const mailer = await mailerFor(toMailConfig(mail), ctx.config.dataDir, ctx.logger);
  try {
    await mailer.send({ to: test_email, subject: `Test email from ${settings.app_name}`.replace(/[\r\n]+/g, ' '), text: 'Your mail settings work: this message came through them.' });
  } catch (error) {
    throw validationError({ test_email: [`The test email could not be sent: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown error'}`] });
  }
  return { data: { sent_to: test_email } };
}
