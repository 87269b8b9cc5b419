import { useStore } from '@nanostores/react';
import { Bell } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { $user } from '../../stores/user.ts';
import { useT } from '../../stores/i18n.ts';

interface Notification {
  id: string;
  attributes: { category: string; title: string; description: string; created_at: string; read_at: string | null };
}

/**
 * The bell and the notification centre (SPEC §2): a 360 px panel grouped under unread and read,
 * "clear all" only when there is something to clear, closed by Escape or a click outside.
 */
export function NotificationCenter({ side = 'right', sideOffset = 12 }: { side?: 'right' | 'bottom'; sideOffset?: number }) {
  // Local state: the sidebar and the phone top bar each hold a bell (one of them hidden by CSS).
  const [open, setOpen] = useState(false);
  const user = useStore($user);
  const t = useT();
  const unread = (user?.relationships.unreadNotifications.data ?? []) as Notification[];
  const read = (user?.relationships.readNotifications.data ?? []) as Notification[];
  const any = unread.length + read.length > 0;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button type="button" className="relative rounded-control p-2 text-muted hover:bg-surface-2 hover:text-text" aria-label={t('notification_center')}>
          <Bell className="size-5" aria-hidden />
          {unread.length > 0 && <span className="absolute top-1.5 right-1.5 size-2 rounded-full bg-danger" />}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side={side}
          align="end"
          sideOffset={sideOffset}
          collisionPadding={12}
          className="card z-50 w-[360px] max-w-[calc(100vw-1.5rem)] p-5 shadow-xl"
        >
          <div className="mb-4 flex items-center justify-between">
            <h2 className="text-lg font-bold">{t('notification_center')}</h2>
            {any && (
              <button type="button" className="link text-sm">
                {t('clear_all')}
              </button>
            )}
          </div>
          {!any && (
            <div className="flex flex-col items-center gap-3 py-8 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-surface-2 text-muted">
                <Bell className="size-6" aria-hidden />
              </span>
              <p className="text-sm text-muted">{t('not_any_notifications')}</p>
            </div>
          )}
          {[
            [t('unread'), unread],
            [t('read'), read],
          ].map(([heading, list]) =>
            (list as Notification[]).length === 0 ? null : (
              <section key={heading as string} className="mb-3">
                <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">{heading as string}</h3>
                <ul className="flex flex-col gap-2">
                  {(list as Notification[]).map((n) => (
                    <li key={n.id} className="rounded-control bg-surface-2 px-3 py-2 text-sm">
                      <p className="font-semibold">{n.attributes.title}</p>
                      <p className="text-muted">{n.attributes.description}</p>
                    </li>
                  ))}
                </ul>
              </section>
            ),
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
