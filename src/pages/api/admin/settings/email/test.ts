import { sendTestMail } from '../../../../../server/admin/settings/email.ts';
import { route } from '../../../../../server/http/endpoint.ts';

/** `test_email`, and optionally the form's mail fields to try before saving them. */
export const ALL = route({
  POST: ({ ctx, user, body }) => sendTestMail(ctx, user, body),
});
