import type { User } from '../auth/sessions.ts';
import { hashSecret } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import { giveBack, takeHourly as take } from '../http/budget.ts';
import { AppError, validationError } from '../http/errors.ts';
import { getSettings } from '../settings/service.ts';
import type { MailMessage } from './mailer.ts';

/**
 * Every mail the product sends goes through here, throttled with counters in the database (the
 * `rate_limits` table), so several app processes share one budget:
 *
 * - user mail (a share link or an upload request mailed to any address a user types): at most
 *   `mail_max_recipients` addresses per call (422), `mail_per_user_per_hour` per sender and
 *   `mail_per_instance_per_hour` for all senders together (429 with Retry-After). The budget is taken
 *   before anything is saved, so a refused call changes nothing;
 * - system mail (password reset, email verification, the contact form): `mail_system_per_recipient_per_hour`
 *   per address and `mail_system_per_instance_per_hour` in all, counted apart from user mail, so users
 *   spending their sharing budget (or the instance's) never block a password reset.
 *
 * Subjects are fixed product text; the only thing of a user's in one is a display name, cut to one
 * clean line (`displayName`). Everything else a user wrote goes in the body, escaped in the HTML part.
 */

const tooMany = (retryAfter: number, message: string) =>
  new AppError(429, `${message} Try again in ${Math.ceil(retryAfter / 60)} minutes.`, { code: 'mail_limit_exceeded', headers: { 'Retry-After': String(retryAfter) } });

export interface UserMail {
  subject: string;
  text: string;
  html: string;
}

export interface UserMailTicket {
  /** Sends the composed mail to each recipient the ticket was taken for. A failing transport is logged, not thrown: what the call saved stays saved. */
  send(mail: UserMail): Promise<void>;
}

/**
 * Takes the mail budget for a user's mail to `recipients`, or refuses (422 too many addresses, 429
 * over a budget). Call it before saving anything, then `send` once the call has done its work.
 */
export async function takeUserMail(ctx: AppContext, sender: Pick<User, 'id'>, recipients: readonly string[], field = 'emails'): Promise<UserMailTicket> {
  const to = [...new Set(recipients.map((r) => r.trim().toLowerCase()))];
  const settings = await getSettings(ctx);
  if (to.length > settings.mail_max_recipients) {
    throw validationError({ [field]: [`At most ${settings.mail_max_recipients} email addresses at once.`] });
  }
  if (to.length) {
    const userKey = `mail:user:${sender.id}`;
    const mine = await take(ctx, userKey, to.length, settings.mail_per_user_per_hour);
    if (!mine.ok) throw tooMany(mine.retryAfter, `You can send at most ${settings.mail_per_user_per_hour} emails an hour.`);
    const all = await take(ctx, 'mail:instance', to.length, settings.mail_per_instance_per_hour);
    if (!all.ok) {
      await giveBack(ctx, userKey, to.length);
      throw tooMany(all.retryAfter, 'This site has sent as many emails as it may this hour.');
    }
  }
  return {
    async send(mail) {
      for (const address of to) {
        try {
          await ctx.mailer.send({ to: address, subject: oneLine(mail.subject), text: mail.text, html: mail.html });
        } catch (error) {
          ctx.logger.error({ err: error, to: address }, 'user mail failed');
        }
      }
    },
  };
}

/**
 * A mail the product sends by itself (reset link, verification, contact form). Refused with 429 over
 * the per-recipient or the instance's system budget; never counted against any user's budget.
 */
export async function sendSystemMail(ctx: AppContext, message: MailMessage): Promise<void> {
  const settings = await getSettings(ctx);
  const recipientKey = `mail:system:to:${hashSecret(message.to.trim().toLowerCase())}`;
  const recipient = await take(ctx, recipientKey, 1, settings.mail_system_per_recipient_per_hour);
  if (!recipient.ok) throw tooMany(recipient.retryAfter, 'Too many emails to this address.');
  const all = await take(ctx, 'mail:system', 1, settings.mail_system_per_instance_per_hour);
  if (!all.ok) {
    await giveBack(ctx, recipientKey, 1);
    throw tooMany(all.retryAfter, 'This site has sent as many emails as it may this hour.');
  }
  await ctx.mailer.send({ ...message, subject: oneLine(message.subject) });
}

/** A subject is one line, whatever slipped into it. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

const DISPLAY_NAME_MAX = 60;

/**
 * A person's name as it may appear in a subject: control characters (CR/LF above all), line
 * separators, bidirectional and zero-width characters removed, spaces collapsed, cut to 60
 * characters; "Someone" when nothing is left.
 */
export function displayName(name: string): string {
  const clean = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c\u200b-\u200f\ufeff]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...clean];
  if (!chars.length) return 'Someone';
  return chars.length > DISPLAY_NAME_MAX ? `${chars.slice(0, DISPLAY_NAME_MAX - 1).join('').trimEnd()}…` : clean;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Paragraphs of escaped text (line breaks kept) for a mail's HTML part. */
export function htmlParagraphs(...paragraphs: string[]): string {
  return paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n');
}
