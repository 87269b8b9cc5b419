import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { AppError, forbidden } from '../http/errors.ts';
import { getSettings } from '../settings/service.ts';
import { colorFor } from '../users/colors.ts';
import { findUserByEmail, findUserById, insertUser } from '../users/queries.ts';
import { assertSignUpAllowed } from './oidc/only-provider.ts';
import { finishFirstStep, type FirstStepOutcome } from './second-step.ts';
import type { User } from './sessions.ts';

/**
 * Accounts at social and OpenID Connect providers, linked to users. The provider modules (social
 * sign-in, OpenID Connect) turn a callback into an `ExternalIdentity` they have verified, and hand
 * it here; what happens next is the same for all of them.
 */
export interface ExternalIdentity {
  /** 'google', 'facebook', 'github', or 'oidc:<issuer id>'. */
  provider: string;
  /** The provider's stable account id; never the email, which can change hands. */
  subject: string;
  email: string | null;
  /** True only when the provider itself says it verified this email for this account. */
  emailVerified: boolean;
  name: string | null;
}

/** An account that has no password of its own (made through a provider) stores this; no password verifies against it. */
export const NO_PASSWORD = '';

const methodOf = (provider: string) => (provider.startsWith('oidc:') ? (provider as `oidc:${string}`) : (`social:${provider}` as const));

/**
 * Signing in with a provider's account:
 * - linked already: that user's first step passed (the second step still applies);
 * - not linked, the provider verified the email, and an account with a verified email matches: it is linked;
 * - not linked, the email is unknown: a new account when registration is open;
 * - otherwise refused (409), asking to sign in with the password and link from settings: an
 *   unverified email, on either side, could belong to someone else.
 */
export async function signInWithIdentity(ctx: AppContext, identity: ExternalIdentity, options: { remember: boolean }): Promise<FirstStepOutcome> {
  const linked = await ctx.db.selectFrom('user_identities').select(['id', 'user_id']).where('provider', '=', identity.provider).where('subject', '=', identity.subject).executeTakeFirst();
  let user: User | undefined;
  if (linked) {
    user = await findUserById(ctx, linked.user_id);
    if (!user || user.deletion_started_at) throw forbidden('This account cannot sign in.');
    await ctx.db.updateTable('user_identities').set({ last_used_at: ctx.clock.now().toISOString() }).where('id', '=', linked.id).execute();
  } else {
    if (!identity.email) throw new AppError(409, 'The provider did not share an email address. Sign in with your password and link the provider from your settings.');
    const existing = await findUserByEmail(ctx, identity.email);
    if (existing) {
      if (!identity.emailVerified || !existing.email_verified_at || existing.deletion_started_at) {
        throw new AppError(409, 'An account with this email exists already. Sign in with your password, then link this provider from your settings.');
      }
      user = existing;
      await linkIdentity(ctx, user, identity);
    } else {
      if (!identity.emailVerified) throw new AppError(409, 'The provider has not verified this email address, so no account can be made with it.');
      if (!(await getSettings(ctx)).registration_open) throw forbidden('Registration is closed on this instance.');
      await assertSignUpAllowed(ctx, methodOf(identity.provider));
      user = await createUserFromIdentity(ctx, identity, identity.email);
      ctx.events.emit('user.registered', { userId: user.id });
    }
  }
  return finishFirstStep(ctx, user, { remember: options.remember, method: methodOf(identity.provider) });
}

/** Links a provider's account to `user` (from settings, or on a matching verified email); 409 if it belongs to someone else. */
export async function linkIdentity(ctx: AppContext, user: User, identity: ExternalIdentity): Promise<void> {
  const owner = await ctx.db.selectFrom('user_identities').select(['user_id']).where('provider', '=', identity.provider).where('subject', '=', identity.subject).executeTakeFirst();
  if (owner && owner.user_id !== user.id) throw new AppError(409, 'This account at the provider is linked to another user already.');
  if (owner) return;
  const mine = await ctx.db.selectFrom('user_identities').select('id').where('user_id', '=', user.id).where('provider', '=', identity.provider).executeTakeFirst();
  if (mine) throw new AppError(409, 'Another account at this provider is linked already. Unlink it first.');
  const now = ctx.clock.now().toISOString();
  try {
    await ctx.db
      .insertInto('user_identities')
      .values({ id: randomUUID(), user_id: user.id, provider: identity.provider, subject: identity.subject, email: identity.email, created_at: now, last_used_at: now })
      .execute();
  } catch {
    // The same provider account linked in parallel: whoever won owns it.
    throw new AppError(409, 'This account at the provider is linked to another user already.');
  }
}

export async function identitiesOf(ctx: AppContext, userId: string) {
  return ctx.db.selectFrom('user_identities').select(['provider', 'email', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('provider').execute();
}

export function hasPassword(user: User): boolean {
  return user.password_hash !== NO_PASSWORD;
}

async function createUserFromIdentity(ctx: AppContext, identity: ExternalIdentity, email: string): Promise<User> {
  const now = ctx.clock.now().toISOString();
  const id = randomUUID();
  const name = (identity.name?.trim() || email.split('@')[0] || email).slice(0, 255);
  try {
    await insertUser(ctx, {
      id,
      email: email.toLowerCase(),
      name,
      password_hash: NO_PASSWORD,
      role: 'user',
      color: colorFor(id),
      email_verified_at: now,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // A parallel sign-up or callback with the same address made the account first.
    if (await findUserByEmail(ctx, email)) throw new AppError(409, 'An account with this email was just made. Sign in again.');
    throw error;
  }
  const user = await findUserById(ctx, id);
  if (!user) throw new Error('user vanished after insert');
  await linkIdentity(ctx, user, identity);
  return user;
}
