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

/**
 * The entries as links. The phone menu shows each under its section's name; the sidebar, where the
 * file area's own navigation follows them, lists them `compact`ly, one under the other.
 */
export function NavEntries({ onNavigate, compact = false }: { onNavigate?: () => void; compact?: boolean }) {
  const entries = useNavEntries();
  const page = useStore($router);
  const t = useT();
  const current = areaOf(page?.path ?? '');
  return (
    <nav className={`flex flex-col ${compact ? 'gap-0.5' : 'gap-5'}`} aria-label={compact ? t('app.sections') : undefined}>
      {entries.map(({ section, label, href, area, Icon }) => {
        const active = current === area;
        const link = (
          <a
            href={href}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            // Compact: lined up with the file area's places that follow in the sidebar.
            className={`flex items-center rounded-control py-2 text-[15px] font-medium transition-colors ${compact ? 'gap-2.5 px-2' : 'gap-3 px-3'} ${
              active ? 'bg-brand-soft text-brand' : 'text-text hover:bg-surface-2'
            }`}
          >
            <Icon className={`${compact ? 'size-[18px]' : 'size-5'} shrink-0`} aria-hidden />
            {label}
          </a>
        );
        if (compact) return <div key={href}>{link}</div>;
        return (
          <div key={href}>
            <p className="mb-1.5 px-3 text-xs font-semibold tracking-wide text-muted uppercase">{section}</p>
            {link}
          </div>
        );
      })}
    </nav>
  );
}
