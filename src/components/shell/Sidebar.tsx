import { useStore } from '@nanostores/react';
import { LogOut } from 'lucide-react';
import { Avatar } from '../Avatar.tsx';
import { Logo } from '../Logo.tsx';
import { logout } from '../../stores/session.ts';
import { $user } from '../../stores/user.ts';
import { useT } from '../../stores/i18n.ts';
import { NavEntries } from './NavEntries.tsx';
import { NotificationCenter } from './NotificationCenter.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

export const SIDEBAR_AVATAR_SIZE = 44;
const SIDEBAR_WIDTH = 248; // w-[248px] below
// The bell is the first 36 px button after the 16 px padding: open the panel just past the sidebar.
const PANEL_OFFSET = SIDEBAR_WIDTH - 16 - 36 + 12;

/** The large-screen sidebar (SPEC §2). */
export function Sidebar() {
  const user = useStore($user);
  const t = useT();
  return (
    <aside className="sticky top-0 hidden h-dvh w-[248px] shrink-0 flex-col border-r border-border bg-surface px-4 py-6 lg:flex" aria-label={t('app.sidebar')}>
      <a href="/platform/files" className="mb-8 self-start rounded-control px-2">
        <Logo />
      </a>
      <NavEntries />
      <div className="mt-auto flex flex-col gap-3 border-t border-border pt-4">
        {user && (
          <a href="/user/profile" className="flex items-center gap-3 rounded-control p-1.5 hover:bg-surface-2" data-testid="sidebar-user">
            <Avatar size={SIDEBAR_AVATAR_SIZE} name={user.attributes.name} email={user.attributes.email} color={user.attributes.color} avatar={user.attributes.avatar} />
            <span className="min-w-0">
              <span className="block truncate text-sm font-semibold">{user.attributes.name}</span>
              <span className="block truncate text-xs text-muted">{user.attributes.email}</span>
            </span>
          </a>
        )}
        <div className="flex items-center gap-1">
          <NotificationCenter side="right" sideOffset={PANEL_OFFSET} />
          <ThemeToggle />
          <button type="button" onClick={() => void logout()} className="ml-auto flex items-center gap-2 rounded-control px-2.5 py-2 text-sm font-medium text-muted hover:bg-surface-2 hover:text-text">
            <LogOut className="size-5" aria-hidden />
            {t('logout')}
          </button>
        </div>
      </div>
    </aside>
  );
}
