import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';
import OidcSection from './OidcSection.tsx';
import { emptySecret, SecretField, secretChange, type SecretDraft } from './SecretField.tsx';
import { SwitchField } from './SwitchField.tsx';
import { useSettingsTab } from './useSettingsTab.ts';

const PROVIDERS = [
  { id: 'google', name: 'Google' },
  { id: 'facebook', name: 'Facebook' },
  { id: 'github', name: 'GitHub' },
] as const;
type Provider = (typeof PROVIDERS)[number]['id'];

interface SignInSettings {
  social: Record<Provider, { enabled: boolean; client_id: string; client_secret: { set: boolean } }>;
  recaptcha: { enabled: boolean; site_key: string; secret: { set: boolean }; min_score: number };
}

interface Draft {
  social: Record<Provider, { enabled: boolean; client_id: string; client_secret: SecretDraft }>;
  recaptcha: { enabled: boolean; site_key: string; secret: SecretDraft; min_score: string };
}

const toDraft = (s: SignInSettings): Draft => ({
  social: Object.fromEntries(PROVIDERS.map(({ id }) => [id, { enabled: s.social[id].enabled, client_id: s.social[id].client_id, client_secret: emptySecret() }])) as Draft['social'],
  recaptcha: { enabled: s.recaptcha.enabled, site_key: s.recaptcha.site_key, secret: emptySecret(), min_score: String(s.recaptcha.min_score) },
});

/** The settings screen's sign-in tab: social sign-in apps and the score-based bot check. */
export default function SignInTab() {
  const t = useT();
  const tab = useSettingsTab<SignInSettings>('/api/admin/settings/sign-in', 'admin_settings.signin_saved');
  const [draft, setDraft] = useState<Draft | null>(null);
  useEffect(() => {
    if (tab.data) setDraft(toDraft(tab.data));
  }, [tab.data]);

  if (tab.loadError) return <p className="notice-danger">{tab.loadError}</p>;
  if (!tab.data || !draft) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  const saved = tab.data;

  const setProvider = (id: Provider, change: Partial<Draft['social'][Provider]>) => setDraft({ ...draft, social: { ...draft.social, [id]: { ...draft.social[id], ...change } } });
  const setRecaptcha = (change: Partial<Draft['recaptcha']>) => setDraft({ ...draft, recaptcha: { ...draft.recaptcha, ...change } });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const score = Number(draft.recaptcha.min_score);
    void tab.save({
      social: Object.fromEntries(
        PROVIDERS.map(({ id }) => [id, { enabled: draft.social[id].enabled, client_id: draft.social[id].client_id, client_secret: secretChange(draft.social[id].client_secret) }]),
      ),
      recaptcha: {
        enabled: draft.recaptcha.enabled,
        site_key: draft.recaptcha.site_key,
        secret: secretChange(draft.recaptcha.secret),
        // Sent as typed when it is not a number, so the server names the field.
        min_score: draft.recaptcha.min_score.trim() !== '' && Number.isFinite(score) ? score : draft.recaptcha.min_score,
      },
    });
  };

  return (
    <form className="flex flex-col gap-6" onSubmit={submit} noValidate>
      <section className="card p-6" aria-labelledby="signin-social">
        <h2 id="signin-social" className="text-lg font-bold">
          {t('admin_settings.signin_social_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('admin_settings.signin_social_text')}</p>
        {PROVIDERS.map(({ id, name }) => (
          <div key={id} role="group" aria-label={name} className="mt-5 border-t border-border pt-5">
            <SwitchField label={name} hint={t('admin_settings.signin_provider_hint', { provider: name })} checked={draft.social[id].enabled} onChange={(enabled) => setProvider(id, { enabled })} />
            {/* What to paste at the provider as its redirect (callback) URI. */}
            <p className="mt-3 text-sm text-muted" data-testid={`callback-${id}`}>
              {t('oidc.redirect_url')}: <code className="rounded-md bg-surface-2 px-1.5 py-0.5 text-xs break-all text-text">{`${window.location.origin}/api/socialite/${id}/callback`}</code>
            </p>
            <div className="mt-4 grid gap-x-4 sm:grid-cols-2">
              <FormField
                label={t('admin_settings.signin_client_id')}
                value={draft.social[id].client_id}
                onChange={(e) => setProvider(id, { client_id: e.target.value })}
                error={tab.error(`social.${id}.client_id`)}
                maxLength={255}
                spellCheck={false}
                autoComplete="off"
              />
              <SecretField
                label={t('admin_settings.signin_client_secret')}
                saved={saved.social[id].client_secret.set}
                draft={draft.social[id].client_secret}
                onChange={(client_secret) => setProvider(id, { client_secret })}
                error={tab.error(`social.${id}.client_secret`)}
              />
            </div>
          </div>
        ))}
      </section>

      <OidcSection />

      <section className="card p-6" aria-labelledby="signin-botcheck">
        <h2 id="signin-botcheck" className="text-lg font-bold">
          {t('admin_settings.signin_recaptcha_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('admin_settings.signin_recaptcha_text')}</p>
        <div role="group" aria-labelledby="signin-botcheck" className="mt-5 border-t border-border pt-5">
          <SwitchField label={t('admin_settings.signin_recaptcha_enabled')} checked={draft.recaptcha.enabled} onChange={(enabled) => setRecaptcha({ enabled })} />
          <div className="mt-4 grid gap-x-4 sm:grid-cols-2">
            <FormField
              label={t('admin_settings.signin_site_key')}
              value={draft.recaptcha.site_key}
              onChange={(e) => setRecaptcha({ site_key: e.target.value })}
              error={tab.error('recaptcha.site_key')}
              maxLength={255}
              spellCheck={false}
              autoComplete="off"
            />
            <SecretField
              label={t('admin_settings.signin_secret')}
              saved={saved.recaptcha.secret.set}
              draft={draft.recaptcha.secret}
              onChange={(secret) => setRecaptcha({ secret })}
              error={tab.error('recaptcha.secret')}
            />
          </div>
          <div className="max-w-[12rem]">
            <FormField
              label={t('admin_settings.signin_min_score')}
              type="number"
              inputMode="decimal"
              min={0}
              max={1}
              step={0.1}
              value={draft.recaptcha.min_score}
              onChange={(e) => setRecaptcha({ min_score: e.target.value })}
              error={tab.error('recaptcha.min_score')}
            />
          </div>
          <p className="-mt-2 text-sm text-muted">{t('admin_settings.signin_min_score_hint')}</p>
        </div>
      </section>

      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={tab.busy}>
          {tab.busy && <span className="size-4 animate-spin rounded-full border-2 border-on-brand/40 border-t-on-brand" aria-hidden />}
          {t('admin_settings.signin_save')}
        </button>
      </div>
    </form>
  );
}
