import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { itemData } from '../files/presenter.ts';
import { favouriteFolders } from '../files/service.ts';
import { listNotifications } from '../notifications/service.ts';
import { userBilling } from '../billing/user-billing.ts';
import { teamMemberLimit } from '../teams/limits.ts';
import { presentUser } from './presenter.ts';

/** The full user resource: the user with their favourite folders, notifications and billing state. */
export async function userResource(ctx: AppContext, user: User) {
  const [favourites, notifications, teamMembers, billing] = await Promise.all([favouriteFolders(ctx, user.id), listNotifications(ctx, user.id), teamMemberLimit(ctx, user), userBilling(ctx, user.id)]);
  return presentUser(user, favourites.map((i) => itemData(i)), notifications, teamMembers, billing);
}
