import { presentList } from '../../../server/files/presenter.ts';
import { latestFiles } from '../../../server/files/service.ts';
import { route } from '../../../server/http/endpoint.ts';

/** Recent uploads: the user's newest files outside the trash. */
export const ALL = route({
  GET: async ({ ctx, user }) => presentList(await latestFiles(ctx, user), { root: null }),
});
