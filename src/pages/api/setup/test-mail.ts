import { publicRoute } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { EnvironmentInput, TestMailInput } from '../../../server/setup/schemas.ts';
import { sendTestMail } from '../../../server/setup/service.ts';

/** Sends a test email through the mail settings on the environment form, before they are saved. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    const env = validate(EnvironmentInput, body);
    const { test_email } = validate(TestMailInput, body);
    await sendTestMail(ctx, env, { test_email });
    return { message: `A test email was sent to ${test_email}.` };
  },
});
