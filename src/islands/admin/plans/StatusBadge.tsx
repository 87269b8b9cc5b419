import { useT } from '../../../stores/i18n.ts';

const TONES = {
  active: 'bg-success/10 text-success-text',
  archived: 'bg-surface-2 text-muted',
  cancelled: 'bg-warning/10 text-warning-text',
  completed: 'bg-surface-2 text-muted',
} as const;

/** A plan's (active, archived) or a subscription's (active, cancelled, completed) state as a small pill. */
export function StatusBadge({ status }: { status: keyof typeof TONES }) {
  const t = useT();
  return <span className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONES[status]}`}>{t(`billing_plans.status_${status}`)}</span>;
}
