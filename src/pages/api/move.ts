import { MoveInput } from '../../server/files/schemas.ts';
import { itemData } from '../../server/files/presenter.ts';
import { moveItems } from '../../server/files/service.ts';
import { route } from '../../server/http/endpoint.ts';
import { validate } from '../../server/http/validate.ts';

/** Moves items into a folder (`to_id` null, '' or 'all': home); clashing names become `name (n)`. */
export const ALL = route({
  POST: async ({ ctx, user, body }) => {
    const input = validate(MoveInput, body);
    return { data: (await moveItems(ctx, user, input.to_id, input.items)).map((i) => itemData(i)) };
  },
});
