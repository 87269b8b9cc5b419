import { CreditCard, Gift } from 'lucide-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { currencyDigits, formatMinor, parseMajor } from '../../../components/billing/money.ts';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { api, ApiError } from '../../../stores/api.ts';
import { formatDate } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';

interface Money {
  amount_minor: number;
  currency: string;
}
interface UserBilling {
  subscription: {
    plan_name: string;
    plan_type: 'fixed' | 'metered';
    status: 'active' | 'cancelled' | 'completed';
    driver: string;
    amount_minor: number | null;
    currency: string;
    interval: 'month' | 'year' | null;
    current_period_end: string;
    ends_at: string | null;
  } | null;
  balance: Money | null;
  outstanding: Money | null;
  limited: boolean;
  failed_payments: { id: string; amount_minor: number; currency: string; driver: string; reason: string; created_at: string }[];
}

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; billing: UserBilling };

const DRIVERS: Record<string, string> = { stripe: 'billing_pay.driver_stripe', paystack: 'billing_pay.driver_paystack', paypal: 'billing_pay.driver_paypal', balance: 'admin_user_billing.driver_balance' };
const STATUS_CLASS = { active: 'bg-success/10 text-success-text', cancelled: 'bg-warning/10 text-warning-text', completed: 'bg-surface-2 text-muted' } as const;

/**
 * /admin/user/:id/subscription: the user's plan and its state, their balance, what they owe and
 * their open failed payments (GET /api/admin/users/{id}/billing), and a form to gift credit
 * (POST /api/admin/users/{id}/credit: a credit on the balance and a `gift` notification).
 */
export default function UserSubscriptionTab({ userId }: { userId: string }) {
  const t = useT();
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(() => {
    api.get<{ data: { attributes: UserBilling } }>(`/api/admin/users/${encodeURIComponent(userId)}/billing`).then(
      (res) => setState({ status: 'ready', billing: res.data.attributes }),
      (error: unknown) => setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [userId]);
  useEffect(load, [load]);

  if (state.status === 'loading') return <LoadingCard />;
  if (state.status === 'error') return <LoadFailedCard title={t('admin_user_billing.load_failed')} detail={state.message} retryLabel={t('admin_user_billing.retry')} onRetry={load} />;
  const { subscription: sub, balance, outstanding, failed_payments: failed, limited } = state.billing;
  const currency = balance?.currency ?? sub?.currency ?? null;
  return (
    <div className="flex flex-col gap-6">
      <section className="card p-5 sm:p-6" aria-labelledby="admin-billing-plan">
        <div className="flex items-start gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-surface-2 text-muted">
            <CreditCard className="size-5" aria-hidden />
          </span>
          <div className="min-w-0">
            <h2 id="admin-billing-plan" className="text-lg font-bold">
              {t('admin_user_billing.title')}
            </h2>
            <p className="mt-1 text-sm text-muted">{t('admin_user_billing.text')}</p>
          </div>
        </div>
        <dl className="mt-5 grid grid-cols-2 gap-4 border-t border-border pt-5 text-sm lg:grid-cols-4">
          <div>
            <dt className="text-muted">{t('admin_user_billing.plan')}</dt>
            <dd className="mt-1 font-semibold" data-testid="admin-billing-plan">
              {sub ? sub.plan_name : t('admin_user_billing.no_plan')}
            </dd>
            {sub && (
              <dd className="mt-0.5 text-muted">
                {sub.amount_minor !== null && sub.interval
                  ? t(sub.interval === 'year' ? 'admin_user_billing.per_year' : 'admin_user_billing.per_month', { price: formatMinor(sub.amount_minor, sub.currency) })
                  : t('admin_user_billing.metered')}
              </dd>
            )}
          </div>
          <div>
            <dt className="text-muted">{t('admin_user_billing.state')}</dt>
            <dd className="mt-1">
              {sub ? (
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[sub.status]}`} data-testid="admin-billing-state">
                  {t(`admin_user_billing.status_${sub.status}`)}
                </span>
              ) : (
                <span className="font-semibold">{t('admin_user_billing.none')}</span>
              )}
            </dd>
            {sub && sub.status !== 'completed' && (
              <dd className="mt-1 text-muted">
                {sub.status === 'cancelled' && sub.ends_at ? t('admin_user_billing.ends_on', { date: formatDate(sub.ends_at) }) : t('admin_user_billing.renews_on', { date: formatDate(sub.current_period_end) })}
              </dd>
            )}
          </div>
          <div>
            <dt className="text-muted">{t('admin_user_billing.balance')}</dt>
            <dd className="mt-1 text-lg font-bold tabular-nums" data-testid="admin-billing-balance">
              {balance ? formatMinor(balance.amount_minor, balance.currency) : t('admin_user_billing.no_account')}
            </dd>
          </div>
          <div>
            <dt className="text-muted">{t('admin_user_billing.outstanding')}</dt>
            <dd className={`mt-1 text-lg font-bold tabular-nums ${outstanding ? 'text-danger-text' : ''}`} data-testid="admin-billing-outstanding">
              {outstanding ? formatMinor(outstanding.amount_minor, outstanding.currency) : t('admin_user_billing.nothing_owed')}
            </dd>
          </div>
        </dl>
      </section>

      <section className="card p-5 sm:p-6" aria-labelledby="admin-billing-failed">
        <h2 id="admin-billing-failed" className="text-lg font-bold">
          {t('admin_user_billing.failed_title', { count: failed.length })}
        </h2>
        {limited && (
          <p role="status" className="notice-danger mt-3">
            {t('admin_user_billing.limited')}
          </p>
        )}
        {failed.length === 0 ? (
          <p className="mt-2 text-sm text-muted">{t('admin_user_billing.failed_none')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-border text-sm">
            {failed.map((f) => (
              <li key={f.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2.5" data-testid="admin-failed-payment">
                <span className="min-w-0 flex-1">
                  <span className="block font-semibold">{f.reason || t('admin_user_billing.failed_reason_none')}</span>
                  <span className="text-muted">
                    {formatDate(f.created_at)} · {DRIVERS[f.driver] ? t(DRIVERS[f.driver]!) : f.driver}
                  </span>
                </span>
                <span className="font-semibold text-danger-text tabular-nums">{formatMinor(f.amount_minor, f.currency)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <GiftForm userId={userId} currency={currency} onGifted={load} />
    </div>
  );
}

const CURRENCIES = Intl.supportedValuesOf('currency');

/** Gift credit: an amount in major units of the account's currency (chosen here when the user has none yet) and a note. */
function GiftForm({ userId, currency, onGifted }: { userId: string; currency: string | null; onGifted: () => void }) {
  const t = useT();
  const id = useId();
  const [amount, setAmount] = useState('');
  const [chosen, setChosen] = useState(currency ?? 'EUR');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const inCurrency = currency ?? chosen;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const minor = parseMajor(amount, inCurrency);
    if (minor === null) {
      setError(t('admin_user_billing.gift_invalid', { digits: currencyDigits(inCurrency) }));
      return;
    }
    setBusy(true);
    setError('');
    try {
      await api.post(`/api/admin/users/${encodeURIComponent(userId)}/credit`, { amount_minor: minor, currency: inCurrency, ...(note.trim() ? { note: note.trim() } : {}) });
      toast('success', t('admin_user_billing.gift_done', { amount: formatMinor(minor, inCurrency) }));
      setAmount('');
      setNote('');
      onGifted();
    } catch (err) {
      setError(err instanceof ApiError ? (err.errors.amount_minor?.[0] ?? err.errors.currency?.[0] ?? err.errors.note?.[0] ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card p-5 sm:p-6" aria-labelledby={`${id}-title`}>
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-surface-2 text-muted">
          <Gift className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-lg font-bold">
            {t('admin_user_billing.gift_title')}
          </h2>
          <p className="mt-1 text-sm text-muted">{t('admin_user_billing.gift_text')}</p>
        </div>
      </div>
      <form className="mt-5 flex flex-col gap-4" onSubmit={submit} noValidate>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1.5 text-sm font-semibold">
            {t('admin_user_billing.gift_amount', { currency: inCurrency })}
            <input
              className="input w-40 tabular-nums"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </label>
          {!currency && (
            <label className="flex flex-col gap-1.5 text-sm font-semibold">
              {t('admin_user_billing.gift_currency')}
              <select className="input w-32" value={chosen} onChange={(e) => setChosen(e.target.value)}>
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <label className="flex flex-col gap-1.5 text-sm font-semibold">
          {t('admin_user_billing.gift_note')}
          <input className="input max-w-xl" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-danger-text">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('admin_user_billing.gift_submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
