import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { findUserById } from '../../users/queries.ts';
import { hasPassword, identitiesOf } from '../identities.ts';
import type { User } from '../sessions.ts';
import { countWaysIn } from '../ways-in.ts';
import { enabledSocialProviders } from './apps.ts';

/** Provider names as user_identities stores them: the social ones, and OpenID Connect issuers by id. */
const PROVIDER_KEY = /^(google|github|facebook|oidc:[A-Za-z0-9_-]{1,64})$/;

/** GET /api/user/identities: the linked accounts, the providers that could be linked now, and whether a password is set. */
export async function linkedAccounts(ctx: AppContext, user: User) {
  const [links, available] = await Promise.all([identitiesOf(ctx, user.id), enabledSocialProviders(ctx)]);
  return {
    data: links.map((l) => ({ provider: l.provider, email: l.email, linked_at: l.created_at, last_used_at: l.last_used_at })),
    meta: { available, has_password: hasPassword(user) },
  };
}

/**
 * DELETE /api/user/identities/{provider}. Refused (409) when it is the account's last way in. The
 * user's row is written first inside the transaction, which serialises two removals racing each
 * other (a row lock in PostgreSQL, the write lock in SQLite): each then counts what the other left.
 */
export async function unlinkIdentity(ctx: AppContext, user: User, provider: string | undefined): Promise<void> {
  if (!provider || !PROVIDER_KEY.test(provider)) throw notFound('There is no sign-in provider by that name.');
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await trx.updateTable('users').set({ updated_at: ctx.clock.now().toISOString() }).where('id', '=', user.id).execute();
    const link = await trx.selectFrom('user_identities').select('id').where('user_id', '=', user.id).where('provider', '=', provider).executeTakeFirst();
    if (!link) throw notFound('No account at this provider is linked to yours.');
    const fresh = (await findUserById(tx, user.id)) ?? user;
    if ((await countWaysIn(tx, fresh)) <= 1) {
      throw new AppError(409, 'This is the only way to sign in to your account. Set a password (through “Forgot your password?”) or link another account first.', { code: 'last_way_in' });
    }
    await trx.deleteFrom('user_identities').where('id', '=', link.id).execute();
  });
}
