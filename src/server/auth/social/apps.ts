import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { readSecretSetting, secretsSet, type SecretSetting } from '../../settings/secrets.ts';
import { getSettings } from '../../settings/service.ts';
import { PROVIDER_NAMES, SOCIAL_PROVIDERS, type SocialProvider } from './providers.ts';

/** The apps an admin registered at the providers (admin/settings/sign-in.ts stores them). */
const SECRET: Record<SocialProvider, SecretSetting> = {
  google: 'social_google_client_secret',
  github: 'social_github_client_secret',
  facebook: 'social_facebook_client_secret',
};

/**
 * Which providers people may sign in with: switched on, with a client id and a client secret. The
 * config's `socialLogin` flags and the sign-in pages' buttons both come from here, so a button never
 * leads to a provider that cannot work. Reads no secret's value.
 */
export async function socialLoginFlags(ctx: AppContext): Promise<Record<SocialProvider, boolean>> {
  const [settings, set] = await Promise.all([getSettings(ctx), secretsSet(ctx.db, Object.values(SECRET))]);
  return Object.fromEntries(
    SOCIAL_PROVIDERS.map((p) => [p, settings.social_login?.[p] === true && !!settings.social_login_client_ids?.[p]?.trim() && set[SECRET[p]]]),
  ) as Record<SocialProvider, boolean>;
}

export async function enabledSocialProviders(ctx: AppContext): Promise<SocialProvider[]> {
  const flags = await socialLoginFlags(ctx);
  return SOCIAL_PROVIDERS.filter((p) => flags[p]);
}

/** A provider's app credentials; 404 when the provider is unknown, switched off or incomplete. */
export async function socialApp(ctx: AppContext, provider: SocialProvider): Promise<{ clientId: string; clientSecret: string }> {
  const settings = await getSettings(ctx);
  const clientId = settings.social_login_client_ids?.[provider]?.trim() ?? '';
  const clientSecret = settings.social_login?.[provider] === true && clientId ? await readSecretSetting(ctx, SECRET[provider]) : '';
  if (!clientSecret) throw notFound(`Sign-in with ${PROVIDER_NAMES[provider]} is not available on this instance.`);
  return { clientId, clientSecret };
}
