import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { validate } from '../../http/validate.ts';
import { validationError } from '../../http/errors.ts';
import { secretsSet, writeSecretSettings, type SecretSetting } from '../../settings/secrets.ts';
import { getSettings, writeSettings, type Settings } from '../../settings/service.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { changedFields } from './changes.ts';

/**
 * The settings screen's sign-in tab: social sign-in apps (Google, Facebook, GitHub) and the
 * score-based bot check. Secrets are write-only: GET says whether each is set; a PUT without one
 * keeps it, '' or null clears it (secrets.ts stores them encrypted).
 */
export const PROVIDERS = ['google', 'facebook', 'github'] as const;
type Provider = (typeof PROVIDERS)[number];
const PROVIDER_NAMES: Record<Provider, string> = { google: 'Google', facebook: 'Facebook', github: 'GitHub' };
const CLIENT_SECRET: Record<Provider, SecretSetting> = {
  google: 'social_google_client_secret',
  facebook: 'social_facebook_client_secret',
  github: 'social_github_client_secret',
};
const TAB_SECRETS: SecretSetting[] = ['recaptcha_secret', ...Object.values(CLIENT_SECRET)];

// Ids and keys the providers hand out are printable ASCII without spaces.
const PRINTABLE = /^[\x21-\x7e]*$/;
const publicValue = (field: string) =>
  z
    .string({ error: `The ${field} must be text.` })
    .trim()
    .max(255, `The ${field} may not be greater than 255 characters.`)
    .regex(PRINTABLE, `The ${field} may contain only letters, digits and punctuation, without spaces.`);
const secretValue = (field: string) =>
  z
    .string({ error: `The ${field} must be text, or null to remove it.` })
    .trim()
    .max(512, `The ${field} may not be greater than 512 characters.`)
    .regex(PRINTABLE, `The ${field} may contain only letters, digits and punctuation, without spaces.`)
    .nullable()
    .optional();
const flag = (field: string) => z.boolean({ error: `The ${field} field must be true or false.` }).optional();

const ProviderInput = z.strictObject({ enabled: flag('enabled'), client_id: publicValue('client id').optional(), client_secret: secretValue('client secret') });
export const SignInSettingsInput = z.strictObject({
  social: z.strictObject({ google: ProviderInput.optional(), facebook: ProviderInput.optional(), github: ProviderInput.optional() }).optional(),
  recaptcha: z
    .strictObject({
      enabled: flag('enabled'),
      site_key: publicValue('site key').optional(),
      secret: secretValue('secret'),
      min_score: z.number({ error: 'The minimum score must be a number from 0 to 1.' }).min(0, 'The minimum score must be a number from 0 to 1.').max(1, 'The minimum score must be a number from 0 to 1.').optional(),
    })
    .optional(),
});

function present(s: Settings, set: Record<SecretSetting, boolean>) {
  return {
    social: Object.fromEntries(
      PROVIDERS.map((p) => [p, { enabled: s.social_login?.[p] === true, client_id: s.social_login_client_ids?.[p] ?? '', client_secret: { set: set[CLIENT_SECRET[p]] } }]),
    ) as Record<Provider, { enabled: boolean; client_id: string; client_secret: { set: boolean } }>,
    recaptcha: { enabled: s.allowed_recaptcha, site_key: s.recaptcha_client_id, secret: { set: set.recaptcha_secret }, min_score: s.recaptcha_min_score },
  };
}

export async function getSignInSettings(ctx: AppContext, user: User) {
  requireAdmin(user);
  const [settings, set] = await Promise.all([getSettings(ctx), secretsSet(ctx.db, TAB_SECRETS)]);
  return { data: present(settings, set) };
}

export async function putSignInSettings(ctx: AppContext, user: User, body: unknown) {
  requireAdmin(user);
  const input = validate(SignInSettingsInput, body);
  await ctx.db.transaction().execute(async (trx) => {
    const before = present(await getSettings({ ...ctx, db: trx }), await secretsSet(trx, TAB_SECRETS));
    const after = structuredClone(before);
    const secrets: Partial<Record<SecretSetting, string | null>> = {};
    for (const p of PROVIDERS) {
      const change = input.social?.[p];
      if (!change) continue;
      if (change.enabled !== undefined) after.social[p].enabled = change.enabled;
      if (change.client_id !== undefined) after.social[p].client_id = change.client_id;
      if (change.client_secret !== undefined) {
        secrets[CLIENT_SECRET[p]] = change.client_secret;
        after.social[p].client_secret = { set: !!change.client_secret };
      }
    }
    const r = input.recaptcha;
    if (r?.enabled !== undefined) after.recaptcha.enabled = r.enabled;
    if (r?.site_key !== undefined) after.recaptcha.site_key = r.site_key;
    if (r?.min_score !== undefined) after.recaptcha.min_score = r.min_score;
    if (r?.secret !== undefined) {
      secrets.recaptcha_secret = r.secret;
      after.recaptcha.secret = { set: !!r.secret };
    }
    assertUsable(after);

    await writeSettings(trx, {
      social_login: Object.fromEntries(PROVIDERS.map((p) => [p, after.social[p].enabled])) as Settings['social_login'],
      social_login_client_ids: Object.fromEntries(PROVIDERS.map((p) => [p, after.social[p].client_id])) as Settings['social_login_client_ids'],
      allowed_recaptcha: after.recaptcha.enabled,
      recaptcha_client_id: after.recaptcha.site_key,
      recaptcha_min_score: after.recaptcha.min_score,
      // A new secret is judged afresh by the next check (auth/bot-check.ts).
      ...(r?.secret !== undefined ? { recaptcha_secret_refused_at: null } : {}),
    });
    await writeSecretSettings(ctx, trx, secrets, TAB_SECRETS);

    // A secret given counts as changed (its old value is never decrypted to compare); the audit log
    // redacts it by its field name (client_secret, recaptcha.secret).
    const changes = changedFields(auditView(before), auditView(after, secrets));
    if (changes) await recordAudit(ctx, trx, user, { action: 'setting.update', target_type: 'setting', target_id: 'sign-in', target_label: 'Sign-in', ...changes });
  });
  return getSignInSettings(ctx, user);
}

/** Switching a provider or the bot check on needs its id and secret: refused (422, nothing saved) otherwise. */
function assertUsable(after: ReturnType<typeof present>): void {
  const errors: Record<string, string[]> = {};
  for (const p of PROVIDERS) {
    const s = after.social[p];
    if (!s.enabled) continue;
    if (!s.client_id) errors[`social.${p}.client_id`] = [`Enter the client id to turn ${PROVIDER_NAMES[p]} sign-in on.`];
    if (!s.client_secret.set) errors[`social.${p}.client_secret`] = [`Enter the client secret to turn ${PROVIDER_NAMES[p]} sign-in on.`];
  }
  if (after.recaptcha.enabled) {
    if (!after.recaptcha.site_key) errors['recaptcha.site_key'] = ['Enter the site key to turn the bot check on.'];
    if (!after.recaptcha.secret.set) errors['recaptcha.secret'] = ['Enter the secret to turn the bot check on.'];
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/** Flat `provider.field` values for the audit log; a secret shows as set ("[redacted]" once logged) or ''. */
function auditView(view: ReturnType<typeof present>, given: Partial<Record<SecretSetting, string | null>> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const secret = (isSet: boolean, setting: SecretSetting) => (given[setting] ? `changed` : isSet ? 'set' : '');
  for (const p of PROVIDERS) {
    out[`${p}.enabled`] = view.social[p].enabled;
    out[`${p}.client_id`] = view.social[p].client_id;
    out[`${p}.client_secret`] = secret(view.social[p].client_secret.set, CLIENT_SECRET[p]);
  }
  out['recaptcha.enabled'] = view.recaptcha.enabled;
  out['recaptcha.site_key'] = view.recaptcha.site_key;
  out['recaptcha.secret'] = secret(view.recaptcha.secret.set, 'recaptcha_secret');
  out['recaptcha.min_score'] = view.recaptcha.min_score;
  return out;
}
