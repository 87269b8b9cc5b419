import { itemData } from '../../../../server/files/presenter.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { listSharedWithMe } from '../../../../server/teams/service.ts';

/** The team folders I am a member of, each with its owner and my permission in `meta.teams[folder_id]`. */
export const ALL = route({
  GET: async ({ ctx, user }) => {
    const { items, teams } = await listSharedWithMe(ctx, user);
    return { data: items.map(itemData), meta: { teams } };
  },
});
