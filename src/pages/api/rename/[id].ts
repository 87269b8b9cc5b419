import { RenameInput } from '../../../server/files/schemas.ts';
import { presentItem } from '../../../server/files/presenter.ts';
import { renameItem } from '../../../server/files/service.ts';
import { route } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';

/** Rename, emoji and colour of one item; sent as POST with `_method=patch`. */
export const ALL = route({
  PATCH: async ({ ctx, user, params, body }) => presentItem(await renameItem(ctx, user, params.id ?? '', validate(RenameInput, body))),
});
