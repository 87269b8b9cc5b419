import { useStore } from '@nanostores/react';
import { $user } from '../../stores/user.ts';
import { useT } from '../../stores/i18n.ts';

export const FAILED_PAYMENTS_LIMIT = 3;

/** The red bar of a restricted account: shown once a user has 3 failed payments (SPEC §9). */
export function RestrictedBar() {
  const user = useStore($user);
  const t = useT();
  if (!user || user.relationships.failedPayments.data.length < FAILED_PAYMENTS_LIMIT) return null;
  return (
    <div role="alert" className="bg-danger-fill px-4 py-2.5 text-center text-sm font-medium text-white">
      {t('restricted.text')}{' '}
      <a href="/user/settings/billing" className="font-bold underline underline-offset-2">
        {t('restricted.link')}
      </a>
    </div>
  );
}
