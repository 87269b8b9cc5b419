import type { AppContext } from '../../context.ts';
import { forbidden } from '../../http/errors.ts';
import type { SignInMethod } from '../second-step.ts';
import type { User } from '../sessions.ts';

/**
 * "Only this provider" mode: while an admin has set it on an enabled issuer, people sign in (and
 * sign up) through that identity provider alone; a password, a social provider or a passkey is
 * refused for every account except admins, or an account the company removed from its identity
 * provider could keep signing in. Admins keep every way in on purpose: an identity provider that is
 * down or misconfigured must not lock the instance out of its own admin area, where the mode is
 * switched off again.
 *
 * The check runs once the first step passed (second-step.ts finishFirstStep, the passkey sign-in),
 * so it tells nothing about an address to someone who does not know its password.
 */
export async function assertSignInAllowed(ctx: AppContext, user: User, method: SignInMethod): Promise<void> {
  if (user.role === 'admin') return;
  const only = await onlyProvider(ctx);
  if (!only || method === `oidc:${only.id}`) return;
  throw forbidden(
    method === 'password'
      ? `Sign in with ${only.label}: password sign-in is switched off on this instance.`
      : `Sign in with ${only.label}: other ways to sign in are switched off on this instance.`,
  );
}

/** A new account through another provider than the only one: refused before it is made. */
export async function assertSignUpAllowed(ctx: AppContext, method: SignInMethod): Promise<void> {
  const only = await onlyProvider(ctx);
  if (only && method !== `oidc:${only.id}`) throw forbidden(`Sign up with ${only.label}: other ways to make an account are switched off on this instance.`);
}

/** Sign-up with a password makes an account that could not sign in: refused too, pointing to the provider. */
export async function assertPasswordSignUpAllowed(ctx: AppContext): Promise<void> {
  const only = await onlyProvider(ctx);
  if (only) throw forbidden(`Sign up with ${only.label}: accounts with a password are switched off on this instance.`);
}

const onlyProvider = (ctx: AppContext) => ctx.db.selectFrom('oidc_issuers').select(['id', 'label']).where('sign_in_only', '=', 1).where('enabled', '=', 1).executeTakeFirst();
