import { publicRoute } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { DatabaseInput } from '../../../server/setup/schemas.ts';
import { saveDatabase, setupView } from '../../../server/setup/service.ts';

export const ALL = publicRoute({
  POST: async ({ ctx, body, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    await saveDatabase(ctx, validate(DatabaseInput, body));
    return { data: await setupView(ctx) };
  },
});
