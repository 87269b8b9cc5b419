import { json, route } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { uploadRequestData } from '../../../server/upload-requests/presenter.ts';
import { CreateUploadRequestInput } from '../../../server/upload-requests/schemas.ts';
import { createUploadRequest } from '../../../server/upload-requests/service.ts';

/** Asks someone to upload into a folder (folder_id, or a new folder named `name`); 201 with the request and its token. */
export const ALL = route({
  POST: async ({ ctx, user, body }) => {
    const { request, folder } = await createUploadRequest(ctx, user, validate(CreateUploadRequestInput, body));
    return json({ data: uploadRequestData(ctx, request, folder, 'owner') }, 201);
  },
});
