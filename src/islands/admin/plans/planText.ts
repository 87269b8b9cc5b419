import { formatMicros, formatMinor } from '../../../components/billing/money.ts';
import { formatSize } from '../../../stores/files.ts';
import type { Translate } from '../../../stores/i18n.ts';
import type { Plan } from './client.ts';

const locale = () => (typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined);

/** A plan's price in one line: "€4.99 / month" for fixed plans, "$2.00 / month + usage" for metered ones. */
export function priceText(plan: Plan, t: Translate): string {
  const a = plan.attributes;
  if (a.plan_type === 'fixed') return t(`billing_plans.per_${a.interval ?? 'month'}`, { price: formatMinor(a.amount_minor ?? 0, a.currency, locale()) });
  return t('billing_plans.flat_plus_usage', { price: formatMinor(a.flat_fee_minor ?? 0, a.currency, locale()) });
}

/** What a plan gives or charges, as short facts for lists. */
export function planFacts(plan: Plan, t: Translate): string[] {
  const a = plan.attributes;
  if (a.plan_type === 'fixed') return [formatSize(a.storage_bytes ?? 0), t('billing_plans.members_count', { count: a.max_team_members ?? 0 })];
  return [
    t('billing_plans.per_gb_day', { price: formatMicros(a.storage_gb_day_micros ?? 0, a.currency, locale()) }),
    t('billing_plans.per_gb_bandwidth', { price: formatMicros(a.bandwidth_gb_micros ?? 0, a.currency, locale()) }),
    t('billing_plans.per_member_day', { price: formatMicros(a.member_day_micros ?? 0, a.currency, locale()) }),
  ];
}
