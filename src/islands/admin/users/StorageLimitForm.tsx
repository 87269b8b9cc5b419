import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { formatSize } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { LIMIT_UNITS, limitAmount, saveUserStorage, type LimitUnit, type UserStorage } from './userStorage.ts';

type Choice = 'default' | 'unlimited' | 'custom';

function initial(own: number | null): { choice: Choice; amount: string; unit: LimitUnit } {
  if (own === null) return { choice: 'default', amount: '', unit: 'GB' };
  if (own === 0) return { choice: 'unlimited', amount: '', unit: 'GB' };
  return { choice: 'custom', ...limitAmount(own) };
}

/** The user's storage limit: the instance default, none, or one of their own (in MB, GB or TB). */
export function StorageLimitForm({ userId, storage, onSaved }: { userId: string; storage: UserStorage; onSaved: (storage: UserStorage) => void }) {
  const t = useT();
  const id = useId();
  const start = initial(storage.attributes.storage_limit_bytes);
  const [choice, setChoice] = useState<Choice>(start.choice);
  const [amount, setAmount] = useState(start.amount);
  const [unit, setUnit] = useState<LimitUnit>(start.unit);
  const [error, setError] = useState('');
  const [warning, setWarning] = useState('');
  const [busy, setBusy] = useState(false);

  const fallback = storage.attributes.default_storage_limit_bytes;
  const options: { value: Choice; label: string }[] = [
    { value: 'default', label: fallback > 0 ? t('admin_users.storage_limit_default', { size: formatSize(fallback) }) : t('admin_users.storage_limit_default_none') },
    { value: 'unlimited', label: t('admin_users.storage_limit_unlimited') },
    { value: 'custom', label: t('admin_users.storage_limit_custom') },
  ];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let bytes: number | null = choice === 'default' ? null : 0;
    if (choice === 'custom') {
      const value = Number(amount.trim().replace(',', '.'));
      if (!amount.trim() || !Number.isFinite(value) || value <= 0) {
        setError(t('admin_users.storage_limit_amount_invalid'));
        return;
      }
      bytes = Math.max(1, Math.round(value * LIMIT_UNITS[unit]));
    }
    setBusy(true);
    setError('');
    setWarning('');
    try {
      const res = await saveUserStorage(userId, { storage_limit_bytes: bytes });
      toast('success', t('admin_users.storage_limit_saved'));
      if (res.meta.warnings.some((w) => w.code === 'quota_below_usage')) setWarning(t('admin_users.storage_limit_below_usage', { used: formatSize(res.data.attributes.used) }));
      onSaved(res.data);
    } catch (err) {
      setError(err instanceof ApiError ? (err.errors.storage_limit_bytes?.[0] ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card p-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {t('admin_users.storage_limit_title')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('admin_users.storage_limit_text')}</p>
      <form className="mt-4" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset>
          <legend className="sr-only">{t('admin_users.storage_limit_title')}</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {options.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-center gap-3 rounded-control border border-border px-4 py-3 text-[15px] font-medium transition-colors hover:bg-surface-2 has-[:checked]:border-brand has-[:checked]:bg-brand-soft"
              >
                <input
                  type="radio"
                  name={`${id}-choice`}
                  value={option.value}
                  checked={choice === option.value}
                  onChange={() => {
                    setChoice(option.value);
                    setError('');
                  }}
                  className="size-4 shrink-0 accent-[var(--brand)]"
                />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
        {choice === 'custom' && (
          <div className="mt-4 flex flex-wrap items-start gap-3">
            <div className="w-40">
              <label className="label" htmlFor={`${id}-amount`}>
                {t('admin_users.storage_limit_amount')}
              </label>
              <input
                id={`${id}-amount`}
                className="input tabular-nums"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
            </div>
            <div className="w-28">
              <label className="label" htmlFor={`${id}-unit`}>
                {t('admin_users.storage_limit_unit')}
              </label>
              <select id={`${id}-unit`} className="input" value={unit} onChange={(e) => setUnit(e.target.value as LimitUnit)}>
                {Object.keys(LIMIT_UNITS).map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </select>
            </div>
          </div>
        )}
        {error && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        )}
        {warning && (
          <p role="status" className="notice mt-4 border-warning/40 bg-warning/10 text-text">
            {warning}
          </p>
        )}
        <div className="mt-5 flex justify-end">
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('admin_users.storage_limit_save')}
          </button>
        </div>
      </form>
    </section>
  );
}
