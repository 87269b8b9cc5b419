import { useT } from '../../../stores/i18n.ts';
import type { Role } from './client.ts';

/** An account's role as a small pill: brand-coloured for admins, quiet for everyone else. */
export function RoleBadge({ role }: { role: Role }) {
  const t = useT();
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${role === 'admin' ? 'bg-brand-soft text-brand' : 'bg-surface-2 text-muted'}`}
    >
      {role === 'admin' ? t('admin_users.role_admin') : t('admin_users.role_user')}
    </span>
  );
}
