import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';
import { emptySecret, SecretField, secretChange, type SecretDraft } from '../settings/SecretField.tsx';
import { SwitchField } from '../settings/SwitchField.tsx';
import { useSettingsTab } from '../settings/useSettingsTab.ts';

type Secret = { set: boolean };
interface PaymentSettings {
  stripe: { enabled: boolean; public_key: string; secret_key: Secret; webhook_secret: Secret };
  paystack: { enabled: boolean; public_key: string; secret_key: Secret };
  paypal: { enabled: boolean; client_id: string; client_secret: Secret; webhook_id: string };
}

/** Each provider's fields: public ones are text, secrets are write-only. */
const PROVIDERS = [
  { id: 'stripe', name: 'Stripe', publicFields: [['public_key', 'billing_pay.stripe_public_key']], secretFields: [['secret_key', 'billing_pay.secret_key'], ['webhook_secret', 'billing_pay.stripe_webhook_secret']] },
  { id: 'paystack', name: 'Paystack', publicFields: [['public_key', 'billing_pay.paystack_public_key']], secretFields: [['secret_key', 'billing_pay.secret_key']] },
  { id: 'paypal', name: 'PayPal', publicFields: [['client_id', 'billing_pay.paypal_client_id'], ['webhook_id', 'billing_pay.paypal_webhook_id']], secretFields: [['client_secret', 'billing_pay.paypal_client_secret']] },
] as const;
type ProviderId = (typeof PROVIDERS)[number]['id'];

type Draft = Record<ProviderId, { enabled: boolean; values: Record<string, string>; secrets: Record<string, SecretDraft> }>;

const toDraft = (s: PaymentSettings): Draft =>
  Object.fromEntries(
    PROVIDERS.map((p) => {
      const saved = s[p.id] as unknown as Record<string, string | boolean>;
      return [p.id, { enabled: s[p.id].enabled, values: Object.fromEntries(p.publicFields.map(([f]) => [f, String(saved[f] ?? '')])), secrets: Object.fromEntries(p.secretFields.map(([f]) => [f, emptySecret()])) }];
    }),
  ) as Draft;

/** The payments tab: Stripe, Paystack and PayPal switched on or off with their keys. */
export default function ProvidersTab() {
  const t = useT();
  const tab = useSettingsTab<PaymentSettings>('/api/admin/payments/payments', 'billing_pay.payments_saved');
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
  const set = (id: ProviderId, change: Partial<Draft[ProviderId]>) => setDraft({ ...draft, [id]: { ...draft[id], ...change } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void tab.save(
      Object.fromEntries(
        PROVIDERS.map((p) => [p.id, { enabled: draft[p.id].enabled, ...draft[p.id].values, ...Object.fromEntries(p.secretFields.map(([f]) => [f, secretChange(draft[p.id].secrets[f]!)])) }]),
      ),
    );
  };
  return (
    <form className="flex flex-col gap-6" onSubmit={submit} noValidate aria-label={t('billing_pay.tab_payments')}>
      {PROVIDERS.map((p) => (
        <section key={p.id} className="card p-5 sm:p-6" aria-label={p.name}>
          <SwitchField label={p.name} hint={t(`billing_pay.${p.id}_hint`)} checked={draft[p.id].enabled} onChange={(enabled) => set(p.id, { enabled })} />
          <div className="mt-4 grid gap-x-4 border-t border-border pt-4 sm:grid-cols-2">
            {p.publicFields.map(([f, label]) => (
              <FormField
                key={f}
                label={t(label)}
                value={draft[p.id].values[f]}
                maxLength={255}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => set(p.id, { values: { ...draft[p.id].values, [f]: e.target.value } })}
                error={tab.error(`${p.id}.${f}`)}
              />
            ))}
            {p.secretFields.map(([f, label]) => (
              <SecretField
                key={f}
                label={t(label)}
                saved={(saved[p.id] as unknown as Record<string, Secret>)[f]!.set}
                draft={draft[p.id].secrets[f]!}
                onChange={(d) => set(p.id, { secrets: { ...draft[p.id].secrets, [f]: d } })}
                error={tab.error(`${p.id}.${f}`)}
              />
            ))}
          </div>
          <p className="mt-1 text-sm text-muted">{t('billing_pay.webhook_url', { url: `${location.origin}/api/webhooks/${p.id}` })}</p>
        </section>
      ))}
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={tab.busy}>
          {tab.busy && <span className="size-4 animate-spin rounded-full border-2 border-on-brand/40 border-t-on-brand" aria-hidden />}
          {t('billing_pay.save')}
        </button>
      </div>
    </form>
  );
}
