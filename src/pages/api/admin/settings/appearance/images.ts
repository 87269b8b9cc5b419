import { uploadAppearanceImage } from '../../../../../server/admin/settings/appearance.ts';
import { route } from '../../../../../server/http/endpoint.ts';

/** multipart/form-data: `slot` (logo_horizontal, logo_horizontal_dark or favicon) and the `image`. */
export const ALL = route({
  POST: ({ ctx, user, body }) => uploadAppearanceImage(ctx, user, body),
});
