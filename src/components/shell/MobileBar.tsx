import { useStore } from '@nanostores/react';
import { LogOut, Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Avatar } from '../Avatar.tsx';
import { Logo } from '../Logo.tsx';
import { logout } from '../../stores/session.ts';
import { $mobileMenuOpen } from '../../stores/ui.ts';
import { $user } from '../../stores/user.ts';
import { useT } from '../../stores/i18n.ts';
import { NavEntries } from './NavEntries.tsx';
import { NotificationCenter } from './NotificationCenter.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

/** Below the large breakpoint: a top bar and a menu drawer in place of the sidebar. */
export function MobileBar() {
  const open = useStore($mobileMenuOpen);
  const user = useStore($user);
  const t = useT();
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-border bg-surface/95 px-3 backdrop-blur lg:hidden">
      <Dialog.Root open={open} onOpenChange={(next) => $mobileMenuOpen.set(next)}>
        <Dialog.Trigger asChild>
          <button type="button" className="rounded-control p-2 text-text hover:bg-surface-2" aria-label={t('app.open_menu')}>
            <Menu className="size-5" aria-hidden />
          </button>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-backdrop" />
          <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-[280px] max-w-[85vw] flex-col bg-surface px-4 py-5 shadow-xl">
            <div className="mb-6 flex items-center justify-between">
              <Dialog.Title asChild>
                <span>
                  <Logo />
                </span>
              </Dialog.Title>
              <Dialog.Close asChild>
                <button type="button" className="rounded-control p-2 text-muted hover:bg-surface-2" aria-label={t('app.close_menu')}>
                  <X className="size-5" aria-hidden />
                </button>
              </Dialog.Close>
            </div>
            <Dialog.Description className="sr-only">{t('app.sidebar')}</Dialog.Description>
            <NavEntries onNavigate={() => $mobileMenuOpen.set(false)} />
            <div className="mt-auto flex items-center gap-1 border-t border-border pt-4">
              <ThemeToggle />
              <button type="button" onClick={() => void logout()} className="ml-auto flex items-center gap-2 rounded-control px-2.5 py-2 text-sm font-medium text-muted hover:bg-surface-2 hover:text-text">
                <LogOut className="size-5" aria-hidden />
                {t('logout')}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <a href="/platform/files" className="rounded-control">
        <Logo />
      </a>
      <div className="ml-auto flex items-center gap-1">
        <NotificationCenter side="bottom" />
        {user && (
          <a href="/user/profile" aria-label={t('locations.profile')} className="rounded-lg">
            <Avatar size={32} name={user.attributes.name} email={user.attributes.email} color={user.attributes.color} avatar={user.attributes.avatar} />
          </a>
        )}
      </div>
    </header>
  );
}
