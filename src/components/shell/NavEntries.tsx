import { useStore } from '@nanostores/react';
import { House, LayoutDashboard, Settings, User as UserIcon } from 'lucide-react';
import type { ComponentType } from 'react';
import { $router, areaOf } from '../../stores/router.ts';
import { $user } from '../../stores/user.ts';
import { useT } from '../../stores/i18n.ts';

interface Entry {
  section: string;
  label: string;
  href: string;
  area: 'platform' | 'user' | 'admin';
  Icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
}

/** The sidebar entries of SPEC §2: Files, Profile, and Dashboard for admins. */
export function useNavEntries(): Entry[] {
  const user = useStore($user);
  const t = useT();
  const admin = user?.attributes.role === 'admin';
  const entries: Entry[] = [
    { section: t('sections.platform'), label: t('locations.home'), href: '/platform/files', area: 'platform', Icon: House },
    { section: t('sections.user'), label: t('locations.profile'), href: '/user/profile', area: 'user', Icon: admin ? UserIcon : Settings },
  ];
  if (admin) entries.push({ section: t('sections.admin'), label: t('locations.settings'), href: '/admin/dashboard', area: 'admin', Icon: LayoutDashboard });
  return entries;
}

export function NavEntries({ onNavigate }: { onNavigate?: () => void }) {
  const entries = useNavEntries();
  const page = useStore($router);
  const current = areaOf(page?.path ?? '');
  return (
    <nav className="flex flex-col gap-5">
      {entries.map(({ section, label, href, area, Icon }) => {
        const active = current === area;
        return (
          <div key={href}>
            <p className="mb-1.5 px-3 text-xs font-semibold tracking-wide text-muted uppercase">{section}</p>
            <a
              href={href}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              className={`flex items-center gap-3 rounded-control px-3 py-2 text-[15px] font-medium transition-colors ${
                active ? 'bg-brand-soft text-brand' : 'text-text hover:bg-surface-2'
              }`}
            >
              <Icon className="size-5 shrink-0" aria-hidden />
              {label}
            </a>
          </div>
        );
      })}
    </nav>
  );
}
