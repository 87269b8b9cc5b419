import { json, publicRoute } from '../../../server/http/endpoint.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { uploadSetupLogo } from '../../../server/setup/service.ts';

/** multipart/form-data with the image under `logo`; answers the path to put in a logo field. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    return json({ data: { url: await uploadSetupLogo(ctx, body.logo) } }, 201);
  },
});
