import { publicRoute } from '../../../server/http/endpoint.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { setupView } from '../../../server/setup/service.ts';

/** What the wizard saved so far and the next step, to resume after a reload. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    return { data: await setupView(ctx) };
  },
});
