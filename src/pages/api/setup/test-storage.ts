import { publicRoute } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { EnvironmentInput } from '../../../server/setup/schemas.ts';
import { checkStorage } from '../../../server/setup/service.ts';

/** "Check storage": writes, reads back and deletes a probe object with the S3 settings on the environment form, before they are saved. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    return checkStorage(ctx, validate(EnvironmentInput, body));
  },
});
