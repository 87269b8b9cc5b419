import { RestoreInput } from '../../../server/files/schemas.ts';
import { itemData } from '../../../server/files/presenter.ts';
import { restoreItems } from '../../../server/files/service.ts';
import { route } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';

export const ALL = route({
  POST: async ({ ctx, user, body }) => {
    const input = validate(RestoreInput, body);
    return { data: (await restoreItems(ctx, user, input.to_home, input.items)).map((i) => itemData(i)) };
  },
});
