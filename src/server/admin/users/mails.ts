import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { AppError, isAppError } from '../../http/errors.ts';
import { sendSystemMail } from '../../mail/outgoing.ts';
import { getSettings } from '../../settings/service.ts';

/** The mail inviting a person to an account an admin made: a link (valid a week) to choose the password. */
export async function sendInvitationMail(ctx: AppContext, user: Pick<User, 'name' | 'email'>, link: string): Promise<void> {
  const settings = await getSettings(ctx);
  await deliver(ctx, {
    to: user.email,
    subject: `Your ${settings.app_name} account is ready`,
    text:
      `Hello ${user.name},\n\nAn administrator created a ${settings.app_name} account for you (${user.email}).\n\n` +
      `Open this link within 7 days to choose your password:\n${link}\n\nIf you did not expect this, you can ignore this message.`,
  });
}

/** The reset link an admin sends from the user's password tab (valid an hour, as a forgotten-password link). */
export async function sendAdminResetMail(ctx: AppContext, user: Pick<User, 'name' | 'email'>, link: string): Promise<void> {
  const settings = await getSettings(ctx);
  await deliver(ctx, {
    to: user.email,
    subject: `Choose a new ${settings.app_name} password`,
    text:
      `Hello ${user.name},\n\nAn administrator of ${settings.app_name} signed your account out everywhere and asks you to choose a new password.\n\n` +
      `Open this link within 60 minutes to choose it:\n${link}\n\nYour current password keeps working until you do.`,
  });
}

/** Through the system mail budget; a transport failure becomes a clear 502 instead of a 500. */
async function deliver(ctx: AppContext, message: { to: string; subject: string; text: string }): Promise<void> {
  try {
    await sendSystemMail(ctx, message);
  } catch (error) {
    if (isAppError(error)) throw error;
    ctx.logger.warn({ err: error, to: message.to }, 'admin mail not sent');
    throw new AppError(502, 'The mail could not be sent. Check the mail settings and try again.', { code: 'mail_failed' });
  }
}
