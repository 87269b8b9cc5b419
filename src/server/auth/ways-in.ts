import type { AppContext } from '../context.ts';
import { hasPassword } from './identities.ts';
import type { User } from './sessions.ts';

/**
 * The ways a person can still get into their account: the password, each linked provider account,
 * and each passkey. Removing one is refused while it is the last: an account nobody can sign into
 * is lost, with its files. (passkeys.ts removes a passkey under the same rule, in its transaction.)
 */
type Source = (ctx: AppContext, user: User) => Promise<number>;

const sources: Source[] = [
  async (_ctx, user) => (hasPassword(user) ? 1 : 0),
  async (ctx, user) => {
    const row = await ctx.db.selectFrom('user_identities').select((eb) => eb.fn.countAll<string | number>().as('n')).where('user_id', '=', user.id).executeTakeFirst();
    return Number(row?.n ?? 0);
  },
  async (ctx, user) => {
    const row = await ctx.db.selectFrom('passkeys').select((eb) => eb.fn.countAll<string | number>().as('n')).where('user_id', '=', user.id).executeTakeFirst();
    return Number(row?.n ?? 0);
  },
];

export async function countWaysIn(ctx: AppContext, user: User): Promise<number> {
  const counts = await Promise.all(sources.map((source) => source(ctx, user)));
  return counts.reduce((a, b) => a + b, 0);
}
