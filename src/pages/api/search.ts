import { abilitiesOf, ownerContext } from '../../server/files/abilities.ts';
import { SearchQuery } from '../../server/files/schemas.ts';
import { presentList } from '../../server/files/presenter.ts';
import { searchItems } from '../../server/files/service.ts';
import { route } from '../../server/http/endpoint.ts';
import { validate } from '../../server/http/validate.ts';

/** The spotlight: files and folders whose name contains `query`, outside the trash. */
export const ALL = route({
  GET: async ({ ctx, user, query }) => {
    const items = await searchItems(ctx, user, validate(SearchQuery, Object.fromEntries(query)).query);
    return presentList(items, { root: null }, await abilitiesOf(ctx.db, user, ownerContext(user), items));
  },
});
