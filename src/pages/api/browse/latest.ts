import { abilitiesOf, ownerContext } from '../../../server/files/abilities.ts';
import { presentList } from '../../../server/files/presenter.ts';
import { latestFiles } from '../../../server/files/service.ts';
import { route } from '../../../server/http/endpoint.ts';

/** Recent uploads: the user's newest files outside the trash. */
export const ALL = route({
  GET: async ({ ctx, user }) => {
    const items = await latestFiles(ctx, user);
    return presentList(items, { root: null }, await abilitiesOf(ctx.db, user, ownerContext(user), items));
  },
});
