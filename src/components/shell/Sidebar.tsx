import { useStore } from '@nanostores/react';
import { LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Avatar } from '../Avatar.tsx';
import { Logo } from '../Logo.tsx';
import { logout } from '../../stores/session.ts';
import { $user } from '../../stores/user.ts';
import { useT } from '../../stores/i18n.ts';
import { NavEntries } from './NavEntries.tsx';
import { NotificationCenter } from './NotificationCenter.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

export const SIDEBAR_AVATAR_SIZE = 44;
const SIDEBAR_WIDTH = 264; // w-[264px] below
// The bell is the first 36 px button after the 16 px padding: open the panel just past the sidebar.
const PANEL_OFFSET = SIDEBAR_WIDTH - 16 - 36 + 12;
/** The account block's height: the sidebar's scrolling part stops above it. */
const ACCOUNT_HEIGHT = 'h-[140px]';

/**
 * The large-screen sidebar (SPEC §2): the app's sections, then what the screen adds under them (the
 * file area's places, favourites and folder tree), in one column that scrolls on its own.
 */
export function Sidebar({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <aside className="sticky top-0 hidden h-dvh w-[264px] shrink-0 flex-col border-r border-border bg-surface lg:flex" aria-label={t('app.sidebar')}>
      {/* Not a tab stop of its own: Files, right after it, goes to the same place. */}
      <a href="/platform/files" tabIndex={-1} className="mx-4 mt-6 mb-6 self-start rounded-control px-2">
        <Logo />
      </a>
      <div className="flex min-h-0 flex-1 flex-col gap-6 overflow-y-auto overscroll-contain px-4 pb-6" data-testid="sidebar-scroll">
        <NavEntries compact />
        {children}
      </div>
      <div className={`${ACCOUNT_HEIGHT} shrink-0`} aria-hidden />
    </aside>
  );
}

/**
 * The account block at the foot of the sidebar: who is signed in, the bell, the theme and signing
 * out. It comes after the page in the document, so Tab from the top reaches the page's content
 * without passing it, and is pinned under the sidebar's scrolling part on screen.
 */
export function SidebarAccount() {
  const user = useStore($user);
  const t = useT();
  return (
    <section aria-label={t('app.account')} className={`fixed bottom-0 left-0 z-20 hidden ${ACCOUNT_HEIGHT} w-[264px] flex-col justify-end gap-3 border-t border-r border-border bg-surface px-4 pt-3 pb-4 lg:flex`}>
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
    </section>
  );
}
