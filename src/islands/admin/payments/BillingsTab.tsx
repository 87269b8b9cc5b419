import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useStore } from '@nanostores/react';
import { $config } from '../../../stores/config.ts';
import { useT } from '../../../stores/i18n.ts';
import { useSettingsTab } from '../settings/useSettingsTab.ts';

interface BillingDetails {
  name: string;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  vat_id: string;
  email: string;
  phone: string;
}

const FIELDS: { key: Exclude<keyof BillingDetails, 'country'>; label: string; type?: string; max: number; autoComplete: string }[] = [
  { key: 'name', label: 'billing_pay.company_name', max: 120, autoComplete: 'organization' },
  { key: 'address', label: 'billing_pay.address', max: 200, autoComplete: 'street-address' },
  { key: 'city', label: 'billing_pay.city', max: 100, autoComplete: 'address-level2' },
  { key: 'postal_code', label: 'billing_pay.postal_code', max: 20, autoComplete: 'postal-code' },
  { key: 'vat_id', label: 'billing_pay.vat_id', max: 40, autoComplete: 'off' },
  { key: 'email', label: 'billing_pay.email', type: 'email', max: 254, autoComplete: 'email' },
  { key: 'phone', label: 'billing_pay.phone', type: 'tel', max: 40, autoComplete: 'tel' },
];

/** Region codes the browser's ICU data names, in the page language: the same source the server checks against. */
function countryOptions(locale: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames([locale, 'en'], { type: 'region', fallback: 'none' });
  const out: { value: string; label: string }[] = [];
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (name && !['ZZ', 'EU', 'EZ', 'UN', 'XA', 'XB', 'QO'].includes(code)) out.push({ value: code, label: name });
    }
  }
  return out.sort((x, y) => x.label.localeCompare(y.label, locale));
}

/** The billings tab: the company's details printed on every invoice. */
export default function BillingsTab() {
  const t = useT();
  const locale = useStore($config)?.locale ?? 'en';
  const tab = useSettingsTab<BillingDetails>('/api/admin/payments/billings', 'billing_pay.billings_saved');
  const [draft, setDraft] = useState<BillingDetails | null>(null);
  useEffect(() => {
    if (tab.data) setDraft(tab.data);
  }, [tab.data]);
  const countries = useMemo(() => [{ value: '', label: t('billing_pay.country_none') }, ...countryOptions(locale)], [locale, t]);

  if (tab.loadError) return <p className="notice-danger">{tab.loadError}</p>;
  if (!draft) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void tab.save({ ...draft });
  };
  return (
    <form className="flex flex-col gap-6" onSubmit={submit} noValidate aria-label={t('billing_pay.tab_billings')}>
      <section className="card p-5 sm:p-6" aria-labelledby="billings-title">
        <h2 id="billings-title" className="text-lg font-bold">
          {t('billing_pay.billings_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('billing_pay.billings_text')}</p>
        <div className="mt-5 grid gap-x-4 sm:grid-cols-2">
          {FIELDS.slice(0, 4).map((f) => (
            <FormField
              key={f.key}
              label={t(f.label)}
              type={f.type ?? 'text'}
              value={draft[f.key]}
              maxLength={f.max}
              autoComplete={f.autoComplete}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
              error={tab.error(f.key)}
            />
          ))}
          <SelectField label={t('billing_pay.country')} value={draft.country} options={countries} onChange={(country) => setDraft({ ...draft, country })} error={tab.error('country')} />
          {FIELDS.slice(4).map((f) => (
            <FormField
              key={f.key}
              label={t(f.label)}
              type={f.type ?? 'text'}
              value={draft[f.key]}
              maxLength={f.max}
              autoComplete={f.autoComplete}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
              error={tab.error(f.key)}
            />
          ))}
        </div>
      </section>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={tab.busy}>
          {tab.busy && <span className="size-4 animate-spin rounded-full border-2 border-on-brand/40 border-t-on-brand" aria-hidden />}
          {t('billing_pay.save')}
        </button>
      </div>
    </form>
  );
}
