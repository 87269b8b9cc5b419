import { z } from 'zod';
import { botCheckToken, requireBotCheck } from '../auth/bot-check.ts';
import { emailField, nameField } from '../auth/schemas.ts';
import { hit } from '../auth/rate-limit.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { displayName, sendSystemMail } from '../mail/outgoing.ts';
import { getSettings } from '../settings/service.ts';

const MAX_MESSAGE = 5000;
const CONTACT_PER_IP = { max: 10, windowMs: 60 * 60_000 };

// A line break in a value that ends up in a mail header (Subject, Reply-To) could add headers of its
// own: refused before any trimming, not cleaned up.
const singleLine = (field: string) => z.string({ error: `The ${field} field is required.` }).refine((v) => !/[\r\n]/.test(v), `The ${field} may not contain line breaks.`);

export const ContactInput = z.object({
  name: singleLine('name').pipe(nameField),
  email: singleLine('email').pipe(emailField),
  message: z
    .string({ error: 'The message field is required.' })
    .trim()
    .min(1, 'The message field is required.')
    .max(MAX_MESSAGE, `The message may not be greater than ${MAX_MESSAGE} characters.`),
  /** The honeypot: hidden from people, filled in by naive bots. */
  website: z.string().max(0, 'The message could not be sent.').optional(),
  recaptcha_token: botCheckToken,
});

export type ContactMessage = z.infer<typeof ContactInput>;

/** The contact form: bot checks, then one mail to the contact address (or the first admin's). */
export async function sendContactMessage(ctx: AppContext, input: ContactMessage, ip: string): Promise<void> {
  const settings = await getSettings(ctx);
  await hit(ctx, `contact:ip:${ip}`, CONTACT_PER_IP);
  await requireBotCheck(ctx, input.recaptcha_token, 'contact', ip);
  const to = settings.contact_email || (await firstAdminEmail(ctx));
  if (!to) throw new AppError(503, 'The contact form is not set up yet: no contact address.');
  await sendSystemMail(ctx, {
    to,
    replyTo: input.email,
    subject: `Contact form: ${displayName(input.name)}`,
    text: `${input.name} <${input.email}> wrote through the contact form of ${settings.app_name}:\n\n${input.message}\n`,
  });
}

async function firstAdminEmail(ctx: AppContext): Promise<string | null> {
  const row = await ctx.db.selectFrom('users').select('email').where('role', '=', 'admin').orderBy('created_at').limit(1).executeTakeFirst();
  return row?.email ?? null;
}
