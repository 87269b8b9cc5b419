import { abilitiesOf, ownerContext } from '../../server/files/abilities.ts';
import { originalLocations } from '../../server/files/locations.ts';
import { SearchQuery } from '../../server/files/schemas.ts';
import { presentList } from '../../server/files/presenter.ts';
import { searchItems } from '../../server/files/service.ts';
import { route } from '../../server/http/endpoint.ts';
import { validate } from '../../server/http/validate.ts';

/**
 * The spotlight: files and folders whose name contains `query`, outside the trash. `meta.locations`
 * gives each result's folders from home down (the navigation tree is loaded a level at a time, so
 * the client cannot find a deep result's place in it).
 */
export const ALL = route({
  GET: async ({ ctx, user, query }) => {
    const items = await searchItems(ctx, user, validate(SearchQuery, Object.fromEntries(query)).query);
    const located = await originalLocations(ctx.db, items);
    const locations = Object.fromEntries(items.map((item) => [item.id, located.get(item.id)!.path]));
    return presentList(items, { root: null, locations }, await abilitiesOf(ctx.db, user, ownerContext(user), items));
  },
});
