import { useStore } from '@nanostores/react';
import { Dialog } from 'radix-ui';
import { CreditCard } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { formatMicros, formatMinor } from '../../../components/billing/money.ts';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { api, ApiError } from '../../../stores/api.ts';
import { $config } from '../../../stores/config.ts';
import { formatDate } from '../../../stores/dates.ts';
import { formatSize } from '../../../stores/files.ts';
import { useT, type Translate } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { SettingsNav } from '../SettingsNav.tsx';
import { BillingSections } from './BillingSections.tsx';

export type Driver = 'stripe' | 'paystack' | 'paypal';

interface Plan {
  id: string;
  type: 'fixed' | 'metered';
  name: string;
  description: string;
  currency: string;
  interval: 'month' | 'year' | null;
  amount_minor: number;
  storage_bytes: number | null;
  max_team_members: number | null;
  storage_gb_day_micros: number | null;
  bandwidth_gb_micros: number | null;
  member_day_micros: number | null;
  flat_fee_minor: number | null;
}
interface Subscription {
  id: string;
  plan_id: string;
  plan_name: string;
  status: 'active' | 'cancelled' | 'completed';
  driver: string;
  amount_minor: number | null;
  currency: string;
  interval: 'month' | 'year' | null;
  current_period_end: string;
  ends_at: string | null;
}
interface BillingState {
  subscription: Subscription | null;
  plans: Plan[];
  drivers: Driver[];
}

const DRIVER_NAMES: Record<Driver, string> = { stripe: 'billing_pay.driver_stripe', paystack: 'billing_pay.driver_paystack', paypal: 'billing_pay.driver_paypal' };

/**
 * The select-payment-method popup (SPEC §1): the providers the admin switched on, one button each.
 * `onChoose` starts the checkout with that provider and sends the browser to its page. LEDGER's
 * top-up and pay-outstanding sections open it too.
 */
export function PaymentMethodDialog({ open, title, description, drivers, onChoose, onClose }: { open: boolean; title: string; description: string; drivers: Driver[]; onChoose: (driver: Driver) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState<Driver | null>(null);
  const choose = async (driver: Driver) => {
    setBusy(driver);
    try {
      await onChoose(driver);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
        <Dialog.Content className="card fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto p-6 md:w-[440px]">
          <Dialog.Title className="text-xl font-bold tracking-tight">{title}</Dialog.Title>
          <Dialog.Description className="mt-1.5 text-[15px] text-muted">{description}</Dialog.Description>
          {drivers.length === 0 ? (
            <p className="mt-5 notice-danger">{t('billing_pay.no_methods')}</p>
          ) : (
            <ul className="mt-5 flex flex-col gap-2" aria-label={t('billing_pay.methods')}>
              {drivers.map((driver) => (
                <li key={driver}>
                  <button type="button" className="btn-secondary w-full justify-start" disabled={busy !== null} onClick={() => void choose(driver)}>
                    {busy === driver ? <span className="size-4 animate-spin rounded-full border-2 border-current/40 border-t-current" aria-hidden /> : <CreditCard className="size-4" aria-hidden />}
                    {t(DRIVER_NAMES[driver])}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="mt-6 flex justify-end">
            <Dialog.Close className="btn-secondary">{t('billing_pay.cancel')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A metered plan's monthly fee and unit prices, as the plan card lists them. */
function meteredTerms(t: Translate, plan: Plan, locale: string): { price: string; lines: string[] } {
  const lines: string[] = [];
  if (plan.storage_gb_day_micros) lines.push(t('billing_accept.metered_storage', { price: formatMicros(plan.storage_gb_day_micros, plan.currency, locale) }));
  if (plan.bandwidth_gb_micros) lines.push(t('billing_accept.metered_bandwidth', { price: formatMicros(plan.bandwidth_gb_micros, plan.currency, locale) }));
  if (plan.member_day_micros) lines.push(t('billing_accept.metered_members', { price: formatMicros(plan.member_day_micros, plan.currency, locale) }));
  return { price: t('billing_accept.metered_price', { fee: formatMinor(plan.flat_fee_minor ?? 0, plan.currency, locale) }), lines };
}

function priceLabel(t: Translate, amountMinor: number, currency: string, interval: string | null, locale: string) {
  const price = formatMinor(amountMinor, currency, locale);
  return interval === 'year' ? t('billing_pay.per_year', { price }) : t('billing_pay.per_month', { price });
}

/** /user/settings/billing: the subscription, the plans, and (from LEDGER) balance, transactions and invoices. */
export default function BillingScreen() {
  const t = useT();
  useTitle(t('billing_pay.title'));
  const locale = useStore($config)?.locale ?? 'en';
  const [state, setState] = useState<BillingState | null>(null);
  const [failed, setFailed] = useState(false);
  const [choosing, setChoosing] = useState<Plan | null>(null);
  // A single charge under way (SPEC §1): paying what is outstanding, or topping the balance up.
  const [paying, setPaying] = useState<{ purpose: 'outstanding' | 'top-up'; amountMinor?: number } | null>(null);
  const [busy, setBusy] = useState(false);
  // Remounts the balance sections when a metered subscription starts (their top-up form and estimate appear).
  const [sectionsKey, setSectionsKey] = useState(0);
  const returned = new URLSearchParams(location.search).has('checkout');

  const load = useCallback(() => {
    setFailed(false);
    api
      .get<{ data: BillingState }>('/api/billing/subscription')
      .then((res) => setState(res.data))
      .catch(() => setFailed(true));
  }, []);
  useEffect(load, []);
  // Back from the provider with the subscription already confirmed: the notice has nothing more to say.
  useEffect(() => {
    if (returned && state?.subscription) history.replaceState(history.state, '', location.pathname);
  }, [returned, state]);

  const act = async (work: () => Promise<{ data: BillingState }>, done: string) => {
    setBusy(true);
    try {
      setState((await work()).data);
      toast('success', t(done));
    } catch (error) {
      toast('danger', errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const subscribe = async (driver: Driver) => {
    if (!choosing) return;
    try {
      const res = await api.post<{ data: { url?: string } }>('/api/billing/subscription', { plan_id: choosing.id, driver });
      if (res.data.url) location.assign(res.data.url);
    } catch (error) {
      toast('danger', error instanceof ApiError ? error.message : errorText(error));
    }
  };

  // A metered plan is paid from the balance: no provider, no popup; the balance is topped up below.
  const subscribeMetered = async (plan: Plan) => {
    setBusy(true);
    try {
      await api.post('/api/billing/subscription/metered', { plan_id: plan.id });
      setState((await api.get<{ data: BillingState }>('/api/billing/subscription')).data);
      setSectionsKey((k) => k + 1);
      toast('success', t('billing_accept.metered_subscribed', { plan: plan.name }));
    } catch (error) {
      toast('danger', error instanceof ApiError ? error.message : errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const pay = async (driver: Driver) => {
    if (!paying) return;
    try {
      const body = paying.purpose === 'top-up' ? { purpose: 'top-up', amount_minor: paying.amountMinor, driver } : { purpose: 'outstanding', driver };
      const res = await api.post<{ data: { url?: string } }>('/api/billing/checkout', body);
      if (res.data.url) location.assign(res.data.url);
    } catch (error) {
      toast('danger', error instanceof ApiError ? error.message : errorText(error));
    }
  };

  const sub = state?.subscription ?? null;
  return (
    <div>
      <PageHeader title={t('billing_pay.title')} subtitle={t('billing_pay.subtitle')} />
      <SettingsNav />
      {returned && state && !state.subscription && (
        <p className="notice mb-6" role="status">
          {t('billing_pay.returned')}
        </p>
      )}
      {!state && !failed && <LoadingCard />}
      {failed && <LoadFailedCard title={t('billing_pay.load_failed')} retryLabel={t('billing_pay.retry')} onRetry={load} />}
      {state && (
        <div className="flex flex-col gap-6">
          <section className="card p-5 sm:p-6" aria-labelledby="billing-current">
            <h2 id="billing-current" className="text-lg font-bold">
              {t('billing_pay.current_title')}
            </h2>
            {sub ? (
              <div className="mt-3 flex flex-wrap items-center justify-between gap-4">
                <div>
                  <p className="flex items-center gap-2 font-semibold">
                    {sub.plan_name}
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${sub.status === 'active' ? 'bg-success/10 text-success-text' : 'bg-warning/10 text-warning-text'}`}>
                      {t(`billing_pay.status_${sub.status}`)}
                    </span>
                  </p>
                  <p className="mt-1 text-sm text-muted">
                    {sub.amount_minor !== null ? `${priceLabel(t, sub.amount_minor, sub.currency, sub.interval, locale)} · ` : sub.driver === 'balance' ? `${t('billing_accept.paid_from_balance')} · ` : ''}
                    {sub.status === 'cancelled' && sub.ends_at
                      ? t('billing_pay.ends_on', { date: formatDate(sub.ends_at) })
                      : t('billing_pay.renews_on', { date: formatDate(sub.current_period_end) })}
                  </p>
                </div>
                {sub.driver !== 'balance' &&
                  (sub.status === 'active' ? (
                    <button type="button" className="btn-secondary" disabled={busy} onClick={() => void act(() => api.delete('/api/billing/subscription'), 'billing_pay.cancelled')}>
                      {t('billing_pay.cancel_subscription')}
                    </button>
                  ) : (
                    <button type="button" className="btn-primary" disabled={busy} onClick={() => void act(() => api.post('/api/billing/subscription/resume', {}), 'billing_pay.resumed')}>
                      {t('billing_pay.resume')}
                    </button>
                  ))}
              </div>
            ) : (
              <p className="mt-2 text-sm text-muted">{t('billing_pay.no_subscription')}</p>
            )}
          </section>

          <section aria-labelledby="billing-plans">
            <h2 id="billing-plans" className="mb-3 text-lg font-bold">
              {t('billing_pay.plans_title')}
            </h2>
            {state.plans.length === 0 ? (
              <p className="card p-5 text-sm text-muted">{t('billing_pay.no_plans')}</p>
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
                {state.plans.map((plan) => {
                  const current = sub?.plan_id === plan.id;
                  const metered = plan.type === 'metered' ? meteredTerms(t, plan, locale) : null;
                  return (
                    <li key={plan.id} className={`card flex flex-col p-5 ${current ? 'ring-2 ring-brand' : ''}`} aria-label={plan.name}>
                      <h3 className="font-bold">{plan.name}</h3>
                      <p className="mt-1 text-2xl font-bold tracking-tight">{metered ? metered.price : priceLabel(t, plan.amount_minor, plan.currency, plan.interval, locale)}</p>
                      <ul className="mt-3 flex-1 space-y-1 text-sm text-muted">
                        {metered?.lines.map((line) => (
                          <li key={line}>{line}</li>
                        ))}
                        {plan.storage_bytes !== null && <li>{t('billing_pay.plan_storage', { size: formatSize(plan.storage_bytes) })}</li>}
                        {plan.max_team_members !== null && <li>{t('billing_pay.plan_members', { count: plan.max_team_members })}</li>}
                        {plan.description && <li>{plan.description}</li>}
                      </ul>
                      <div className="mt-4">
                        {current ? (
                          <p className="text-sm font-semibold text-brand">{t('billing_pay.your_plan')}</p>
                        ) : sub ? (
                          <button
                            type="button"
                            className="btn-secondary w-full"
                            disabled={busy || sub.status !== 'active' || sub.driver === 'balance' || plan.type === 'metered'}
                            onClick={() => void act(() => api.patch('/api/billing/subscription', { plan_id: plan.id }), 'billing_pay.plan_changed')}
                          >
                            {t('billing_pay.switch_plan')}
                          </button>
                        ) : (
                          <button type="button" className="btn-primary w-full" disabled={busy} onClick={() => (plan.type === 'metered' ? void subscribeMetered(plan) : setChoosing(plan))}>
                            {t('billing_pay.choose_plan')}
                          </button>
                        )}
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>

          <BillingSections key={sectionsKey} onPay={(purpose, amountMinor) => setPaying({ purpose, amountMinor })} />
        </div>
      )}
      <PaymentMethodDialog
        open={choosing !== null}
        title={t('billing_pay.method_title')}
        description={choosing ? t('billing_pay.method_text', { plan: choosing.name, price: priceLabel(t, choosing.amount_minor, choosing.currency, choosing.interval, locale) }) : ''}
        drivers={state?.drivers ?? []}
        onChoose={subscribe}
        onClose={() => setChoosing(null)}
      />
      <PaymentMethodDialog
        open={paying !== null}
        title={t(paying?.purpose === 'top-up' ? 'billing_ledger.top_up_title' : 'billing_ledger.pay_outstanding')}
        description={t(paying?.purpose === 'top-up' ? 'billing_ledger.top_up_text' : 'billing_ledger.pay_outstanding_text')}
        drivers={state?.drivers ?? []}
        onChoose={pay}
        onClose={() => setPaying(null)}
      />
    </div>
  );
}
