import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { itemData } from '../files/presenter.ts';
import { favouriteFolders } from '../files/service.ts';
import { presentUser } from './presenter.ts';

/** The full user resource: the user with their favourite folders. */
export async function userResource(ctx: AppContext, user: User) {
  return presentUser(user, (await favouriteFolders(ctx, user.id)).map(itemData));
}
