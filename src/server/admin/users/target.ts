import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { findUserRow } from './queries.ts';

const ID_MAX = 64;
export const userNotFound = () => notFound('This user does not exist.');

/** The account an admin opened (call after requireAdmin), or 404; an id that cannot be one is not looked up. */
export async function findTarget(ctx: AppContext, id: string | undefined): Promise<User> {
  const user = id && id.length <= ID_MAX ? await findUserRow(ctx.db, id) : undefined;
  if (!user) throw userNotFound();
  return user;
}
