import { ownerContext, withTreeAbilities } from '../../../server/files/abilities.ts';
import { navigationTree } from '../../../server/files/service.ts';
import { route } from '../../../server/http/endpoint.ts';

/** The folder tree for the navigation panel: `{ data: [{ id, name, color, emoji, parent_id, folders: [...], abilities }] }`. */
export const ALL = route({
  GET: async ({ ctx, user }) => ({ data: await withTreeAbilities(ctx.db, user, ownerContext(user), await navigationTree(ctx, user)) }),
});
