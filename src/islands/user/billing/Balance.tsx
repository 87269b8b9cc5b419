import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { formatDate } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import { $user } from '../../../stores/user.ts';
import type { BalanceData } from './api.ts';
import { formatMinor, parseMajor } from '../../../components/billing/money.ts';

/**
 * The balance section: what is on the account, what is owed (open failed payments) and the metered
 * month so far. `onPay` (the page shell's select-payment-method popup) pays the outstanding amount,
 * or tops the balance up by the amount typed in.
 */
export function Balance({ balance, onPay }: { balance: BalanceData['attributes']; onPay?: (purpose: 'outstanding' | 'top-up', amountMinor?: number) => void }) {
  const t = useT();
  const [topUp, setTopUp] = useState('');
  const [topUpError, setTopUpError] = useState<string | null>(null);
  const submitTopUp = (event: FormEvent) => {
    event.preventDefault();
    const amount = b.currency ? parseMajor(topUp, b.currency) : null;
    if (amount === null) return setTopUpError(t('billing_ledger.top_up_invalid'));
    setTopUpError(null);
    onPay?.('top-up', amount);
  };
  const user = useStore($user);
  const failed = user?.relationships.failedPayments.data.length ?? 0;
  const b = balance;
  return (
    <section className="card p-5" aria-labelledby="billing-balance-title">
      <h2 id="billing-balance-title" className="mb-4 text-lg font-bold">{t('billing_ledger.balance_title')}</h2>
      {!b.currency ? (
        <p className="text-sm text-muted">{t('billing_ledger.balance_none')}</p>
      ) : (
        <dl className="grid gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{t('billing_ledger.balance_label')}</dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums" data-testid="balance-amount">{formatMinor(b.balance_minor, b.currency)}</dd>
          </div>
          <div>
            <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{t('billing_ledger.estimate_label')}</dt>
            <dd className="mt-1">
              {b.cost_estimate ? (
                <>
                  <span className="text-2xl font-bold tabular-nums">{formatMinor(b.cost_estimate.amount_minor, b.cost_estimate.currency)}</span>
                  <span className="block text-xs text-muted">
                    {t('billing_ledger.estimate_period', { start: formatDate(b.cost_estimate.period_start), end: formatDate(b.cost_estimate.period_end) })}
                  </span>
                </>
              ) : (
                <span className="text-sm text-muted">{t('billing_ledger.estimate_none')}</span>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{t('billing_ledger.outstanding_label')}</dt>
            <dd className={`mt-1 text-2xl font-bold tabular-nums ${b.outstanding ? 'text-danger-text' : ''}`} data-testid="outstanding-amount">
              {formatMinor(b.outstanding?.amount_minor ?? 0, b.outstanding?.currency ?? b.currency)}
            </dd>
          </div>
        </dl>
      )}
      {/* A balance pays metered plans: topping it up is offered to those who are on one. */}
      {onPay && b.currency && b.cost_estimate && (
        <form className="mt-5 flex flex-wrap items-end gap-3" onSubmit={submitTopUp} noValidate>
          <label className="flex flex-col gap-1.5 text-sm font-semibold">
            {t('billing_ledger.top_up_label', { currency: b.currency })}
            <input
              className="input w-40 tabular-nums"
              inputMode="decimal"
              autoComplete="off"
              value={topUp}
              onChange={(e) => setTopUp(e.target.value)}
              aria-invalid={topUpError ? true : undefined}
              aria-describedby={topUpError ? 'billing-top-up-error' : undefined}
            />
          </label>
          <button type="submit" className="btn-secondary">
            {t('billing_ledger.top_up_button')}
          </button>
          {topUpError && (
            <p id="billing-top-up-error" className="w-full text-sm text-danger-text" role="alert">
              {topUpError}
            </p>
          )}
        </form>
      )}
      {b.outstanding && (
        <div role="status" className="notice-danger mt-5 flex flex-wrap items-center gap-3">
          <p className="flex-1">{t('billing_ledger.outstanding_text', { count: failed })}</p>
          {onPay && (
            <button type="button" className="btn-danger" onClick={() => onPay('outstanding')}>
              {t('billing_ledger.pay_outstanding')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
