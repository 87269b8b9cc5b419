import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { itemData } from '../files/presenter.ts';
import { favouriteFolders } from '../files/service.ts';
import { listNotifications } from '../notifications/service.ts';
import { teamMemberLimit } from '../teams/limits.ts';
import { presentUser } from './presenter.ts';

/** The full user resource: the user with their favourite folders and notifications. */
export async function userResource(ctx: AppContext, user: User) {
  const [favourites, notifications, teamMembers] = await Promise.all([favouriteFolders(ctx, user.id), listNotifications(ctx, user.id), teamMemberLimit(ctx, user)]);
  return presentUser(user, favourites.map(itemData), notifications, teamMembers);
}
