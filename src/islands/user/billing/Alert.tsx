import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { billingApi } from './api.ts';
import { currencyDigits, formatMinor, parseMajor, toMajorText } from '../../../components/billing/money.ts';

/** The billing alert (metered plans): a notification once a month when the estimate passes the amount. */
export function Alert({ currency, alertMinor, onSaved }: { currency: string; alertMinor: number | null; onSaved: (alert: number | null) => void }) {
  const t = useT();
  const [text, setText] = useState(alertMinor === null ? '' : toMajorText(alertMinor, currency));
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const save = async (amount: number | null) => {
    setSaving(true);
    setError('');
    try {
      const res = await billingApi.setAlert(amount);
      onSaved(res.data.alert_minor);
      if (amount === null) setText('');
      toast('success', t(amount === null ? 'billing_ledger.alert_removed' : 'billing_ledger.alert_saved'));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = parseMajor(text, currency);
    if (amount === null) return setError(t('billing_ledger.alert_invalid', { digits: currencyDigits(currency) }));
    void save(amount);
  };

  return (
    <section className="card p-5" aria-labelledby="billing-alert-title">
      <h2 id="billing-alert-title" className="text-lg font-bold">{t('billing_ledger.alert_title')}</h2>
      <p className="mt-1 mb-4 text-sm text-muted">{t('billing_ledger.alert_text')}</p>
      <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <label className="flex min-w-40 flex-1 flex-col gap-1.5 sm:max-w-60">
          <span className="label">{t('billing_ledger.alert_label', { currency })}</span>
          <input
            className="input tabular-nums"
            inputMode="decimal"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'billing-alert-error' : 'billing-alert-current'}
          />
        </label>
        <button type="submit" className="btn-primary" disabled={saving}>{t('billing_ledger.alert_save')}</button>
        {alertMinor !== null && (
          <button type="button" className="btn-secondary" disabled={saving} onClick={() => void save(null)}>{t('billing_ledger.alert_off')}</button>
        )}
      </form>
      {error ? (
        <p id="billing-alert-error" role="alert" className="field-error mt-2">{error}</p>
      ) : (
        <p id="billing-alert-current" className="mt-2 text-xs text-muted">
          {alertMinor === null ? t('billing_ledger.alert_unset') : t('billing_ledger.alert_current', { amount: formatMinor(alertMinor, currency) })}
        </p>
      )}
    </section>
  );
}
