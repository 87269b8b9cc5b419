import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, validationError } from '../http/errors.ts';
import { getSettings } from '../settings/service.ts';
import { findUserByEmail, findUserById, insertUser, updateUser } from '../users/queries.ts';
import { colorFor } from '../users/colors.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { revokeAllAccessTokens } from './access-tokens.ts';
import { requireBotCheck } from './bot-check.ts';
import { deviceFor } from './devices.ts';
import { assertPasswordSignUpAllowed } from './oidc/only-provider.ts';
import { finishFirstStep, type FirstStepOutcome } from './second-step.ts';
import { firstInWindow, hit, LIMITS } from './rate-limit.ts';
import { signInFailed, signInSucceeded, takeSignInAttempt } from './sign-in-throttle.ts';
import type { ChangePasswordInput, ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput } from './schemas.ts';
import { invalidateUserSessions, type User } from './sessions.ts';
import { createPasswordResetLink } from './reset-links.ts';
import { weakPasswordMessage } from './strength.ts';
import { generateSecret, hashSecret } from './tokens.ts';
import { sendSystemMail } from '../mail/outgoing.ts';

const VERIFY_LIFETIME_MS = 7 * 24 * 60 * 60_000;
const BAD_CREDENTIALS = 'These credentials do not match our records.';

export async function createUser(ctx: AppContext, input: { name: string; email: string; password: string; role?: 'admin' | 'user'; verified?: boolean }): Promise<User> {
  if (await findUserByEmail(ctx, input.email)) throw validationError({ email: ['The email has already been taken.'] });
  const now = ctx.clock.now().toISOString();
  const id = randomUUID();
  await insertUser(ctx, {
    id,
    email: input.email.toLowerCase(),
    name: input.name,
    password_hash: await hashPassword(input.password),
    role: input.role ?? 'user',
    color: colorFor(id),
    email_verified_at: input.verified ? now : null,
    created_at: now,
    updated_at: now,
  });
  const user = await findUserById(ctx, id);
  if (!user) throw new Error('user vanished after insert');
  return user;
}

/** What sign-up answers, whether the address was new or had an account already. */
export const SIGN_UP_ANSWER = 'Check your email to continue: we sent a message to that address.';
/** The owner hears of sign-up attempts with their address at most once in this window. */
const TAKEN_MAIL_WINDOW_MS = 60 * 60_000;

/**
 * Signs up without telling whether the address has an account: a new address gets its account and
 * the verification mail, a known one a mail to its owner, and the caller the same answer either
 * way, with no session (the new user signs in, or follows the link in the mail).
 */
export async function register(ctx: AppContext, input: z.infer<typeof RegisterInput>, ip: string): Promise<void> {
  const settings = await getSettings(ctx);
  if (!settings.registration_open) throw forbidden('Registration is closed on this instance.');
  await assertPasswordSignUpAllowed(ctx);
  await hit(ctx, `register:ip:${ip}`, LIMITS.registerPerIp);
  await requireBotCheck(ctx, input.recaptcha_token, 'signup', ip);
  const existing = await findUserByEmail(ctx, input.email);
  if (existing) {
    // The same password hashing as a new account, so the answer does not come back faster.
    await hashPassword(input.password);
    await tellOwnerOfSignUpAttempt(ctx, existing);
    return;
  }
  let user: User;
  try {
    user = await createUser(ctx, input);
  } catch (error) {
    // A parallel sign-up with the same address won the race: answer as for a taken one.
    const winner = await findUserByEmail(ctx, input.email);
    if (!winner) throw error;
    await tellOwnerOfSignUpAttempt(ctx, winner);
    return;
  }
  await sendVerificationEmail(ctx, user);
  ctx.events.emit('user.registered', { userId: user.id });
}

async function tellOwnerOfSignUpAttempt(ctx: AppContext, owner: User): Promise<void> {
  if (!(await firstInWindow(ctx, `signup-taken:${owner.id}`, TAKEN_MAIL_WINDOW_MS))) return;
  const settings = await getSettings(ctx);
  const signIn = new URL('/sign-in', ctx.config.appUrl).href;
  const reset = new URL('/forgotten-password', ctx.config.appUrl).href;
  void ctx.mailer
    .send({
      to: owner.email,
      subject: `Someone tried to register with your address on ${settings.app_name}`,
      text:
        `Someone tried to create a ${settings.app_name} account with your address (${owner.email}), which has an account already. Nothing was changed.\n\n` +
        `If it was you, sign in here:\n${signIn}\n\nForgot your password? Choose a new one here:\n${reset}\n\nIf it was not you, you can ignore this message.`,
    })
    .catch((error: unknown) => ctx.logger.error({ err: error }, 'sign-up attempt mail failed'));
}

/**
 * Checks a password under the sign-in throttles (sign-in-throttle.ts): `deviceToken` is the
 * browser's device cookie, which moves the attempt from the account's ceiling to its own budget.
 * A right password is the first step: the session, or the second step's challenge (second-step.ts).
 */
export async function login(ctx: AppContext, input: z.infer<typeof LoginInput>, ip: string, deviceToken?: string): Promise<FirstStepOutcome> {
  // Before the throttles: a request the bot check refuses must not spend the account's attempts.
  await requireBotCheck(ctx, input.recaptcha_token, 'login', ip);
  const attempt = await takeSignInAttempt(ctx, input.email, ip, await deviceFor(ctx, deviceToken, input.email));
  const user = await findUserByEmail(ctx, input.email);
  const ok = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
  // An account being deleted answers like a wrong password: it is as good as gone.
  if (!user || !ok || user.deletion_started_at) {
    await signInFailed(ctx, attempt, user);
    throw validationError({ email: [BAD_CREDENTIALS] }, BAD_CREDENTIALS);
  }
  await signInSucceeded(ctx, attempt);
  // finishFirstStep also refuses password sign-in in "only this provider" mode (oidc/only-provider.ts).
  return finishFirstStep(ctx, user, { remember: input.remember, method: 'password' });
}

/** Answers the same whether or not the address has an account; the mail goes out in the background. */
export async function requestPasswordReset(ctx: AppContext, input: z.infer<typeof ForgotPasswordInput>, ip: string): Promise<void> {
  await hit(ctx, `reset:ip:${ip}`, LIMITS.resetPerIp);
  // Before the account's budget, so a refused bot cannot use it up for the owner.
  await requireBotCheck(ctx, input.recaptcha_token, 'forgot_password', ip);
  await hit(ctx, `reset:account:${hashSecret(input.email)}`, LIMITS.resetPerAccount);
  const user = await findUserByEmail(ctx, input.email);
  if (!user || user.deletion_started_at) return;
  const link = await createPasswordResetLink(ctx, ctx.db, user);
  const settings = await getSettings(ctx);
  // Through the system mail budget (per recipient and instance), never a user's sharing budget.
  void sendSystemMail(ctx, {
    to: user.email,
    subject: `Reset your ${settings.app_name} password`,
    text: `Someone asked to reset the password of your ${settings.app_name} account.\n\nOpen this link within 60 minutes to choose a new one:\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.`,
  }).catch((error: unknown) => ctx.logger.warn({ err: error }, 'password reset mail not sent'));
}

export async function resetPassword(ctx: AppContext, input: z.infer<typeof ResetPasswordInput>, ip: string): Promise<User> {
  await hit(ctx, `reset:ip:${ip}`, LIMITS.resetPerIp);
  const invalid = () => validationError({ token: ['This password reset link is invalid or has expired.'] });
  const row = await ctx.db.selectFrom('password_resets').selectAll().where('token_hash', '=', hashSecret(input.token)).executeTakeFirst();
  if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw invalid();
  const user = await findUserById(ctx, row.user_id);
  if (!user || user.email !== input.email) throw invalid();
  // The form checks the account's bar; an admin's account (an invited admin too) needs the admin's.
  const weak = user.role === 'admin' ? weakPasswordMessage(input.password, [user.email, user.name], 'admin') : null;
  if (weak) throw validationError({ password: [weak] });
  // The link came by mail to this address: following it proves the address (an invitation's first password).
  await updateUser(ctx, user.id, { password_hash: await hashPassword(input.password), ...(user.email_verified_at ? {} : { email_verified_at: ctx.clock.now().toISOString() }) });
  await ctx.db.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
  // Whoever knew the old password may have made sessions and tokens with it: they all end.
  await invalidateUserSessions(ctx, user.id);
  await revokeAllAccessTokens(ctx, user.id);
  ctx.events.emit('user.password-reset', { userId: user.id });
  return user;
}

export async function changePassword(ctx: AppContext, user: User, input: z.infer<typeof ChangePasswordInput>, keepSessionId: string | null): Promise<void> {
  if (!(await verifyPassword(user.password_hash, input.current_password))) {
    throw validationError({ current_password: ['The current password is incorrect.'] });
  }
  await updateUser(ctx, user.id, { password_hash: await hashPassword(input.password) });
  // Every other session and every access token ends; only the session that made the change stays.
  await invalidateUserSessions(ctx, user.id, keepSessionId ?? undefined);
  await revokeAllAccessTokens(ctx, user.id);
}

export async function sendVerificationEmail(ctx: AppContext, user: User): Promise<void> {
  if (user.email_verified_at) return;
  const token = generateSecret(32);
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('email_verifications').where('user_id', '=', user.id).execute();
  await ctx.db
    .insertInto('email_verifications')
    .values({ token_hash: hashSecret(token), user_id: user.id, expires_at: new Date(now.getTime() + VERIFY_LIFETIME_MS).toISOString() })
    .execute();
  const link = new URL(`/verify-email?token=${token}`, ctx.config.appUrl).href;
  const settings = await getSettings(ctx);
  void sendSystemMail(ctx, {
    to: user.email,
    subject: `Confirm your email for ${settings.app_name}`,
    text: `Welcome to ${settings.app_name}, ${user.name}.\n\nConfirm your email address by opening this link:\n${link}`,
  }).catch((error: unknown) => ctx.logger.warn({ err: error }, 'verification mail not sent'));
}

/** "Resend verification email" from the app shell: a fresh link, a few times an hour at most. */
export async function resendVerificationEmail(ctx: AppContext, user: User): Promise<void> {
  if (user.email_verified_at) throw new AppError(409, 'Your email address is verified already.');
  await hit(ctx, `verify-resend:${user.id}`, LIMITS.verificationResendPerUser);
  await sendVerificationEmail(ctx, user);
}

export async function verifyEmail(ctx: AppContext, token: string): Promise<User> {
  const row = token.length <= 200 ? await ctx.db.selectFrom('email_verifications').selectAll().where('token_hash', '=', hashSecret(token)).executeTakeFirst() : undefined;
  if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw new AppError(400, 'This verification link is invalid or has expired.');
  await updateUser(ctx, row.user_id, { email_verified_at: ctx.clock.now().toISOString() });
  await ctx.db.deleteFrom('email_verifications').where('user_id', '=', row.user_id).execute();
  const user = await findUserById(ctx, row.user_id);
  if (!user) throw new AppError(400, 'This verification link is invalid or has expired.');
  return user;
}
