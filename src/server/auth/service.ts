import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, validationError } from '../http/errors.ts';
import { getSettings } from '../settings/service.ts';
import { findUserByEmail, findUserById, insertUser, updateUser } from '../users/queries.ts';
import { colorFor } from '../users/colors.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { clearHits, hit, LIMITS } from './rate-limit.ts';
import type { ChangePasswordInput, ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput } from './schemas.ts';
import { createSession, invalidateUserSessions, type Session, type User } from './sessions.ts';
import { generateSecret, hashSecret } from './tokens.ts';
import { sendSystemMail } from '../mail/outgoing.ts';

const RESET_LIFETIME_MS = 60 * 60_000;
const VERIFY_LIFETIME_MS = 7 * 24 * 60 * 60_000;
const BAD_CREDENTIALS = 'These credentials do not match our records.';

export interface NewSession {
  user: User;
  token: string;
  session: Session;
}

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

export async function register(ctx: AppContext, input: z.infer<typeof RegisterInput>, ip: string): Promise<NewSession> {
  const settings = await getSettings(ctx);
  if (!settings.registration_open) throw forbidden('Registration is closed on this instance.');
  await hit(ctx, `register:ip:${ip}`, LIMITS.registerPerIp);
  const user = await createUser(ctx, input);
  await sendVerificationEmail(ctx, user);
  ctx.events.emit('user.registered', { userId: user.id });
  const { token, session } = await createSession(ctx, user.id, true);
  return { user, token, session };
}

export async function login(ctx: AppContext, input: z.infer<typeof LoginInput>, ip: string): Promise<NewSession> {
  await hit(ctx, `login:ip:${ip}`, LIMITS.loginPerIp);
  const accountKey = `login:account:${hashSecret(input.email)}`;
  await hit(ctx, accountKey, LIMITS.loginPerAccount);
  const user = await findUserByEmail(ctx, input.email);
  const ok = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
  if (!user || !ok) throw validationError({ email: [BAD_CREDENTIALS] }, BAD_CREDENTIALS);
  await clearHits(ctx, accountKey);
  const { token, session } = await createSession(ctx, user.id, input.remember);
  return { user, token, session };
}

/** Answers the same whether or not the address has an account; the mail goes out in the background. */
export async function requestPasswordReset(ctx: AppContext, input: z.infer<typeof ForgotPasswordInput>, ip: string): Promise<void> {
  await hit(ctx, `reset:ip:${ip}`, LIMITS.resetPerIp);
  await hit(ctx, `reset:account:${hashSecret(input.email)}`, LIMITS.resetPerAccount);
  const user = await findUserByEmail(ctx, input.email);
  const token = generateSecret(32);
  if (!user) return;
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('password_resets')
    .values({ token_hash: hashSecret(token), user_id: user.id, created_at: now.toISOString(), expires_at: new Date(now.getTime() + RESET_LIFETIME_MS).toISOString() })
    .execute();
  const link = new URL(`/create-new-password?token=${token}&email=${encodeURIComponent(user.email)}`, ctx.config.appUrl).href;
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
  await updateUser(ctx, user.id, { password_hash: await hashPassword(input.password) });
  await ctx.db.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
  await invalidateUserSessions(ctx, user.id);
  ctx.events.emit('user.password-reset', { userId: user.id });
  return user;
}

export async function changePassword(ctx: AppContext, user: User, input: z.infer<typeof ChangePasswordInput>, keepSessionId: string | null): Promise<void> {
  if (!(await verifyPassword(user.password_hash, input.current_password))) {
    throw validationError({ current_password: ['The current password is incorrect.'] });
  }
  await updateUser(ctx, user.id, { password_hash: await hashPassword(input.password) });
  await invalidateUserSessions(ctx, user.id, keepSessionId ?? undefined);
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

export async function verifyEmail(ctx: AppContext, token: string): Promise<User> {
  const row = token.length <= 200 ? await ctx.db.selectFrom('email_verifications').selectAll().where('token_hash', '=', hashSecret(token)).executeTakeFirst() : undefined;
  if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw new AppError(400, 'This verification link is invalid or has expired.');
  await updateUser(ctx, row.user_id, { email_verified_at: ctx.clock.now().toISOString() });
  await ctx.db.deleteFrom('email_verifications').where('user_id', '=', row.user_id).execute();
  const user = await findUserById(ctx, row.user_id);
  if (!user) throw new AppError(400, 'This verification link is invalid or has expired.');
  return user;
}
