import { CreateFolderInput } from '../../server/files/schemas.ts';
import { presentItem } from '../../server/files/presenter.ts';
import { createFolder } from '../../server/files/service.ts';
import { json, route } from '../../server/http/endpoint.ts';
import { validate } from '../../server/http/validate.ts';

export const ALL = route({
  POST: async ({ ctx, user, body }) => json(presentItem(await createFolder(ctx, user, validate(CreateFolderInput, body))), 201),
});
