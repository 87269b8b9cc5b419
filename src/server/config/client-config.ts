import type { User } from '../auth/sessions.ts';
import { socialLoginFlags } from '../auth/social/apps.ts';
import type { AppContext } from '../context.ts';
import { getSettings } from '../settings/service.ts';
import { installationState } from '../setup/state.ts';
import { capacityFor } from '../billing/limits.ts';

/** Human-readable byte size for limits shown to users. */
export function formatBytes(bytes: number): string {
  if (bytes <= 0) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[i]}`;
}

/** The config object of SPEC §3, injected into every page and held in the client's config store. */
export async function buildClientConfig(ctx: AppContext, locals: { user: Pick<User, 'id' | 'storage_limit_bytes'> | null; locale: string; languages: { code: string; name: string; rtl: boolean }[] }) {
  const s = await getSettings(ctx);
  return {
    installation: await installationState(ctx),
    locale: locals.locale,
    /** The languages a person may pick (built-in and added by an admin), for the profile's language choice. */
    languages: locals.languages.map(({ code, name, rtl }) => ({ code, name, rtl })),
    defaultThemeMode: s.default_theme_mode,
    subscriptionType: s.subscription_type,
    /** The signed-in user's capacity (their own limit, else their fixed plan's, else the instance default; 0 = none). */
    storageLimit: locals.user ? await capacityFor(ctx, locals.user, s) : s.default_storage_limit_bytes,
    chunkSize: s.chunk_size_bytes,
    uploadLimit: s.upload_limit_bytes,
    uploadLimitFormatted: s.upload_limit_bytes > 0 ? formatBytes(s.upload_limit_bytes) : null,
    mimetypesBlacklist: s.mimetypes_blacklist,
    host: ctx.config.appUrl.origin,
    api: `${ctx.config.appUrl.origin}/api`,
    isAuthenticated: locals.user !== null,
    isSaaS: s.subscription_type !== 'none',
    defaultEmoji: s.default_emoji,
    app: { name: s.app_name, description: s.app_description, logo: { horizontal: s.logo_horizontal, horizontal_dark: s.logo_horizontal_dark } },
    allowedRecaptcha: s.allowed_recaptcha,
    recaptchaClientId: s.recaptcha_client_id,
    broadcasting: s.broadcasting,
    /** Each provider's public key, only while the admin has it switched on (the payment popup lists those). */
    stripe_public_key: s.payment_drivers.stripe ? s.stripe_public_key : '',
    paystack_public_key: s.payment_drivers.paystack ? s.paystack_public_key : '',
    paypal_client_id: s.payment_drivers.paypal ? s.paypal_client_id : '',
    /** True only for a provider that is switched on and has its client id and secret (auth/social/apps.ts). */
    socialLogin: await socialLoginFlags(ctx),
    registrationOpen: s.registration_open,
    emailVerificationRequired: s.email_verification_required,
    cookieNotice: s.cookie_notice,
  };
}

export type ClientConfig = Awaited<ReturnType<typeof buildClientConfig>>;
