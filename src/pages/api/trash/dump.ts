import { dumpTrash } from '../../../server/files/service.ts';
import { route } from '../../../server/http/endpoint.ts';

/** Empties the trash; sent as POST with `_method=delete`. */
export const ALL = route({
  DELETE: async ({ ctx, user }) => {
    await dumpTrash(ctx, user);
  },
});
