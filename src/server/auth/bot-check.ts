import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError, validationError } from '../http/errors.ts';
import { readSecretSetting } from '../settings/secrets.ts';
import { getSettings, putSetting, type Settings } from '../settings/service.ts';

/**
 * The score-based bot check (reCAPTCHA v3 style): the page executes a named action with the site
 * key and sends the token as `recaptcha_token`; the server asks the provider's verification
 * endpoint about it with the secret. Switched on by the admin (`allowed_recaptcha`).
 */

/** The named actions the forms execute; each route expects its own. */
export type BotCheckAction = 'login' | 'signup' | 'forgot_password' | 'contact';

/** The form field (and JSON property) that carries the token. */
export const botCheckToken = z.string({ error: 'The bot check failed. Reload the page and try again.' }).max(4000).optional();

/** A token older than this is refused, as the provider itself does after two minutes. */
const MAX_TOKEN_AGE_MS = 2 * 60_000;
/** Clocks drift: a challenge this far in the future still counts as fresh. */
const CLOCK_SKEW_MS = 30_000;
const VERIFY_TIMEOUT_MS = 5000;
export const DEFAULT_BOT_CHECK_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';

// One message for every refusal: which test failed (and the score) would teach a bot what to change.
const REFUSED = 'The bot check failed. Reload the page and try again.';
const refused = () => validationError({ recaptcha_token: [REFUSED] }, REFUSED);

/** The site key while the check is on and set up, else null (the pages then load nothing). */
export function botCheckSiteKey(settings: Settings): string | null {
  return settings.allowed_recaptcha && settings.recaptcha_client_id ? settings.recaptcha_client_id : null;
}

/** The provider's browser script (BOT_CHECK_SCRIPT_URL, else Google's). */
export function botCheckScriptUrl(ctx: AppContext): string {
  return ctx.config.botCheck.scriptUrl ?? DEFAULT_BOT_CHECK_SCRIPT_URL;
}

/** What the verification endpoint answers (the documented siteverify JSON). */
const Answer = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  action: z.string().optional(),
  challenge_ts: z.string().optional(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});


/**
 * Refuses the request (422 on `recaptcha_token`) unless the check is off or the provider vouches
 * for the token: a success, for this action, issued within two minutes, on this app's host, scored
 * at least the minimum. 503 when the provider cannot be asked: the form is not let through unchecked.
 */
export async function requireBotCheck(ctx: AppContext, token: string | undefined, expectedAction: BotCheckAction, ip: string): Promise<void> {
  const settings = await getSettings(ctx);
  if (!botCheckSiteKey(settings)) return;
  if (!token) throw refused();
  const answer = await askProvider(ctx, settings, token, ip);
  // The provider refusing the instance's own secret refuses every guarded form, whatever the
  // visitor does: the admin dashboard says so until the provider accepts it again.
  const codes = answer['error-codes'] ?? [];
  if (codes.includes('invalid-input-secret') || codes.includes('missing-input-secret')) {
    ctx.logger.error({ codes }, 'the bot check refused the instance secret: every guarded form is refused until it is fixed');
    if (!settings.recaptcha_secret_refused_at) await putSetting(ctx, 'recaptcha_secret_refused_at', ctx.clock.now().toISOString());
  } else if (settings.recaptcha_secret_refused_at) {
    await putSetting(ctx, 'recaptcha_secret_refused_at', null);
  }
  if (!answer.success || answer.action !== expectedAction) throw refused();
  const issued = answer.challenge_ts ? Date.parse(answer.challenge_ts) : Number.NaN;
  const age = ctx.clock.now().getTime() - issued;
  if (!Number.isFinite(age) || age > MAX_TOKEN_AGE_MS || age < -CLOCK_SKEW_MS) throw refused();
  if (answer.hostname !== undefined && answer.hostname.toLowerCase() !== ctx.config.appUrl.hostname.toLowerCase()) throw refused();
  if (typeof answer.score !== 'number' || answer.score < settings.recaptcha_min_score) throw refused();
}

async function askProvider(ctx: AppContext, settings: Settings, token: string, ip: string): Promise<z.infer<typeof Answer>> {
  const unreachable = () => new AppError(503, 'The bot check could not be reached. Try again in a moment.');
  let body: unknown;
  try {
    const res = await fetch(ctx.config.botCheck.verifyUrl ?? settings.recaptcha_verify_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: await readSecretSetting(ctx, 'recaptcha_secret'), response: token, remoteip: ip }),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`bot check answered ${res.status}`);
    body = await res.json();
  } catch (error) {
    ctx.logger.warn({ err: error }, 'bot check verification failed');
    throw unreachable();
  }
  const answer = Answer.safeParse(body);
  if (!answer.success) {
    ctx.logger.warn('bot check answered in an unknown shape');
    throw unreachable();
  }
  return answer.data;
}
