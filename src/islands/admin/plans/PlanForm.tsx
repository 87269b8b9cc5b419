import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { currencyDigits, decimalText, parseDecimal } from '../../../components/billing/money.ts';
import { describedBy, FieldNotes } from '../../../components/FieldNotes.tsx';
import { FormField } from '../../../components/FormField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';
import { TextAreaField } from '../settings/SettingsForm.tsx';
import { LIMIT_UNITS, limitAmount, type LimitUnit } from '../users/userStorage.ts';
import { planFormOptions, type Plan, type PlanFields, type PlanType } from './client.ts';

/** The form's text, as typed: money in major units ("4.99"), storage in a unit. */
interface Texts {
  name: string;
  description: string;
  currency: string;
  interval: 'month' | 'year';
  price: string;
  storage: string;
  storage_unit: LimitUnit;
  members: string;
  storage_gb_day: string;
  bandwidth_gb: string;
  member_day: string;
  flat_fee: string;
}

const MICROS = 6;

function textsOf(plan: Plan | null): Texts {
  const a = plan?.attributes;
  const currency = a?.currency ?? 'USD';
  const digits = currencyDigits(currency);
  const storage = limitAmount(a?.storage_bytes ?? 10 * LIMIT_UNITS.GB);
  const money = (v: number | null | undefined, d: number) => (v === null || v === undefined ? '' : decimalText(v, d));
  // Unit prices without the trailing zeros of their six decimals (0.0033, not 0.003300).
  const micros = (v: number | null | undefined) => money(v, MICROS).replace(/\.?0+$/, '');
  return {
    name: a?.name ?? '',
    description: a?.description ?? '',
    currency,
    interval: a?.interval ?? 'month',
    price: money(a?.amount_minor, digits),
    storage: a ? storage.amount : '',
    storage_unit: a ? storage.unit : 'GB',
    members: a?.max_team_members ? String(a.max_team_members) : '',
    storage_gb_day: micros(a?.storage_gb_day_micros),
    bandwidth_gb: micros(a?.bandwidth_gb_micros),
    member_day: micros(a?.member_day_micros),
    flat_fee: money(a?.flat_fee_minor, digits),
  };
}

/**
 * A fixed or metered plan's fields (the create screens and the settings tab). Amounts are typed in
 * major units and sent as integers (minor units; unit prices in millionths); a number that cannot
 * be one is refused here, anything else the server checks and its errors show under the fields.
 */
export function PlanForm({ type, plan, submitLabel, onSubmit, extra }: { type: PlanType; plan: Plan | null; submitLabel: string; onSubmit: (fields: PlanFields) => Promise<Record<string, string[]> | null>; extra?: ReactNode }) {
  const t = useT();
  const [texts, setTexts] = useState<Texts>(() => textsOf(plan));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [currencies, setCurrencies] = useState<{ value: string; label: string }[]>([{ value: texts.currency, label: texts.currency }]);
  useEffect(() => {
    planFormOptions().then(
      (res) => setCurrencies(res.data.currencies.map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` }))),
      () => undefined,
    );
  }, []);
  const set = <K extends keyof Texts>(key: K, value: Texts[K]) => setTexts((x) => ({ ...x, [key]: value }));
  const digits = currencyDigits(texts.currency);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string[]> = {};
    const amount = (text: string, d: number, field: string, required: boolean): number | null => {
      if (!text.trim()) {
        if (required) local[field] = [t('billing_plans.amount_required')];
        return required ? null : 0;
      }
      const value = parseDecimal(text, d);
      if (value === null) local[field] = [t('billing_plans.amount_invalid', { digits: d })];
      return value;
    };
    let fields: PlanFields = { name: texts.name, description: texts.description, currency: texts.currency };
    if (type === 'fixed') {
      const storage = parseDecimal(texts.storage, 6);
      if (!texts.storage.trim() || storage === null || storage === 0) local.storage_bytes = [t('billing_plans.storage_invalid')];
      const members = /^\d+$/.test(texts.members.trim()) ? Number(texts.members.trim()) : null;
      if (members === null) local.max_team_members = [t('billing_plans.members_invalid')];
      fields = {
        ...fields,
        interval: texts.interval,
        amount_minor: amount(texts.price, digits, 'amount_minor', true),
        // Bytes from millionths of the unit, rounded to a whole byte.
        storage_bytes: storage === null ? null : Math.round((storage * LIMIT_UNITS[texts.storage_unit]) / 10 ** 6),
        max_team_members: members,
      };
    } else {
      fields = {
        ...fields,
        storage_gb_day_micros: amount(texts.storage_gb_day, MICROS, 'storage_gb_day_micros', false),
        bandwidth_gb_micros: amount(texts.bandwidth_gb, MICROS, 'bandwidth_gb_micros', false),
        member_day_micros: amount(texts.member_day, MICROS, 'member_day_micros', false),
        flat_fee_minor: amount(texts.flat_fee, digits, 'flat_fee_minor', false),
      };
    }
    if (Object.keys(local).length) return setErrors(local);
    setBusy(true);
    setErrors({});
    try {
      setErrors((await onSubmit(fields)) ?? {});
    } finally {
      setBusy(false);
    }
  };
  const err = (key: string) => errors[key]?.[0];

  return (
    <form className="card max-w-2xl p-6" onSubmit={(e) => void submit(e)} noValidate>
      {errors._ && (
        <p role="alert" className="notice-danger mb-4">
          {errors._[0]}
        </p>
      )}
      <FormField label={t('billing_plans.name')} name="name" autoComplete="off" maxLength={80} value={texts.name} onChange={(e) => set('name', e.target.value)} error={err('name')} />
      <TextAreaField label={t('billing_plans.description')} hint={t('billing_plans.description_hint')} rows={3} maxLength={1000} value={texts.description} onChange={(e) => set('description', e.target.value)} error={err('description')} />
      <div className="grid gap-x-5 sm:grid-cols-2">
        <SelectField label={t('billing_plans.currency')} value={texts.currency} onChange={(v) => set('currency', v)} options={currencies} error={err('currency')} />
        {type === 'fixed' && (
          <SelectField label={t('billing_plans.interval')} value={texts.interval} onChange={(v) => set('interval', v as Texts['interval'])} options={(['month', 'year'] as const).map((v) => ({ value: v, label: t(`billing_plans.interval_${v}`) }))} error={err('interval')} />
        )}
      </div>
      {type === 'fixed' ? (
        <div className="grid gap-x-5 sm:grid-cols-2">
          <AmountField label={t('billing_plans.price')} unit={texts.currency} value={texts.price} onChange={(v) => set('price', v)} error={err('amount_minor')} hint={t('billing_plans.price_hint')} />
          <div className="mb-4">
            <AmountField label={t('billing_plans.storage')} value={texts.storage} onChange={(v) => set('storage', v)} error={err('storage_bytes')} bare>
              <select className="input w-24" value={texts.storage_unit} onChange={(e) => set('storage_unit', e.target.value as LimitUnit)} aria-label={t('billing_plans.storage_unit')}>
                {Object.keys(LIMIT_UNITS).map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </select>
            </AmountField>
          </div>
          <AmountField label={t('billing_plans.members')} unit={t('billing_plans.people')} value={texts.members} onChange={(v) => set('members', v)} error={err('max_team_members')} numeric />
        </div>
      ) : (
        <div className="grid gap-x-5 sm:grid-cols-2">
          <AmountField label={t('billing_plans.storage_gb_day')} unit={texts.currency} value={texts.storage_gb_day} onChange={(v) => set('storage_gb_day', v)} error={err('storage_gb_day_micros')} hint={t('billing_plans.unit_price_hint')} />
          <AmountField label={t('billing_plans.bandwidth_gb')} unit={texts.currency} value={texts.bandwidth_gb} onChange={(v) => set('bandwidth_gb', v)} error={err('bandwidth_gb_micros')} hint={t('billing_plans.unit_price_hint')} />
          <AmountField label={t('billing_plans.member_day')} unit={texts.currency} value={texts.member_day} onChange={(v) => set('member_day', v)} error={err('member_day_micros')} hint={t('billing_plans.unit_price_hint')} />
          <AmountField label={t('billing_plans.flat_fee')} unit={texts.currency} value={texts.flat_fee} onChange={(v) => set('flat_fee', v)} error={err('flat_fee_minor')} hint={t('billing_plans.flat_fee_hint')} />
        </div>
      )}
      {extra}
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy && <Spinner size={16} label={t('app.loading')} />}
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** A decimal amount typed as text (no float on the way: money.ts parses it), with its unit beside it. */
function AmountField({ label, value, onChange, unit, hint, error, numeric, bare, children }: { label: string; value: string; onChange: (v: string) => void; unit?: string; hint?: string; error?: string | undefined; numeric?: boolean; bare?: boolean; children?: ReactNode }) {
  const id = useId();
  const described = describedBy(id, hint, error);
  return (
    <div className={bare ? '' : 'mb-4'}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input id={id} className="input max-w-40 tabular-nums" inputMode={numeric ? 'numeric' : 'decimal'} autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} />
        {unit && <span className="text-sm text-muted">{unit}</span>}
        {children}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
