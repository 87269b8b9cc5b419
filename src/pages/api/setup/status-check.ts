import { publicRoute } from '../../../server/http/endpoint.ts';
import { requireSetupAccess } from '../../../server/setup/access.ts';
import { requiredChecksPass, runChecks } from '../../../server/setup/checks.ts';
import { completeStatusCheck } from '../../../server/setup/service.ts';

/** GET runs the checks; POST runs them again and completes the step when every required one passes. */
export const ALL = publicRoute({
  GET: async ({ ctx, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    const checks = await runChecks(ctx);
    return { data: checks, meta: { ok: requiredChecksPass(checks) } };
  },
  POST: async ({ ctx, astro, ip }) => {
    await requireSetupAccess(astro, ip);
    const { checks } = await completeStatusCheck(ctx);
    return { data: checks, meta: { ok: true } };
  },
});
