import type { AppContext } from '../context.ts';
import { getSettings } from '../settings/service.ts';
import { firstInWindow } from './rate-limit.ts';
import type { User } from './sessions.ts';
import { forgetAttempts, refundAttempt, takeAttempt, type Backoff, type Taken } from './throttle.ts';
import { hashSecret } from './tokens.ts';

const MINUTE = 60_000;

/**
 * Sign-in attempts back off per (account, IP) and per IP; the account as a whole has a higher
 * ceiling against guessing spread over many addresses. A device cookie of that account (devices.ts)
 * replaces all three with a budget of its own: only a browser the owner signed in from holds one,
 * so a stranger who knows an address can slow their own guesses down, never the owner in a browser
 * they signed in from before, not even from the same address (one NAT, a proxy not trusted).
 */
export const SIGN_IN_LIMITS = {
  perAccountAndIp: { free: 5, baseMs: 30_000, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  perIp: { free: 30, baseMs: MINUTE, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  perAccount: { free: 20, baseMs: MINUTE, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  perDevice: { free: 10, baseMs: 30_000, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
} satisfies Record<string, Backoff>;

/** The owner hears at most once in this window that their account is being guessed. */
export const GUESSING_MAIL_WINDOW_MS = 60 * MINUTE;

export interface SignInAttempt {
  keys: { ip: string; accountAndIp: string; account: string; device: string | null };
  taken: Taken[];
}

/** Counts one sign-in attempt for `email` from `ip` (with a valid device cookie's id, if any); 429 when it must wait. */
export async function takeSignInAttempt(ctx: AppContext, email: string, ip: string, deviceId: string | null): Promise<SignInAttempt> {
  const account = hashSecret(email.toLowerCase());
  const keys = {
    ip: `signin:ip:${ip}`,
    accountAndIp: `signin:account-ip:${account}:${hashSecret(ip)}`,
    account: `signin:account:${account}`,
    device: deviceId ? `signin:device:${deviceId}` : null,
  };
  const taken = await takeAttempt(
    ctx,
    keys.device
      ? [{ key: keys.device, limit: SIGN_IN_LIMITS.perDevice }]
      : [
          { key: keys.ip, limit: SIGN_IN_LIMITS.perIp },
          { key: keys.accountAndIp, limit: SIGN_IN_LIMITS.perAccountAndIp },
          { key: keys.account, limit: SIGN_IN_LIMITS.perAccount },
        ],
  );
  return { keys, taken };
}

/** The right password: this address (or device) starts afresh; the shared keys get this attempt back. */
export async function signInSucceeded(ctx: AppContext, attempt: SignInAttempt): Promise<void> {
  const { keys } = attempt;
  if (keys.device) return forgetAttempts(ctx, [keys.device]);
  await forgetAttempts(ctx, [keys.accountAndIp]);
  await refundAttempt(ctx, [keys.ip, keys.account]);
}

/** A wrong password for an existing account that now backs off: mail the owner, once per window. */
export async function signInFailed(ctx: AppContext, attempt: SignInAttempt, user: User | undefined): Promise<void> {
  if (!user) return;
  const slowed = attempt.taken.some((t) => t.backingOff && t.key !== attempt.keys.ip);
  if (!slowed || !(await firstInWindow(ctx, `signin-warning:${user.id}`, GUESSING_MAIL_WINDOW_MS))) return;
  const settings = await getSettings(ctx);
  const reset = new URL('/forgotten-password', ctx.config.appUrl).href;
  void ctx.mailer
    .send({
      to: user.email,
      subject: `Someone is trying to sign in to your ${settings.app_name} account`,
      text:
        `There were several sign-in attempts with a wrong password on your ${settings.app_name} account (${user.email}). ` +
        `We now slow further attempts down.\n\nIf it was you, wait a few minutes, or choose a new password here:\n${reset}\n\n` +
        `If it was not you, your account is safe as long as your password is strong and not used elsewhere. ` +
        `Signing in from a browser you used before keeps working.`,
    })
    .catch((error: unknown) => ctx.logger.error({ err: error }, 'sign-in warning mail failed'));
}
