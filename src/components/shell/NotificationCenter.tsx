import { useStore } from '@nanostores/react';
import { Bell } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useEffect, useState } from 'react';
import type { NotificationData } from '../../server/notifications/service.ts';
import { api, ApiError } from '../../stores/api.ts';
import { $listing, refreshListing } from '../../stores/files.ts';
import { acceptInvitation, declineInvitation } from '../../stores/teams.ts';
import { useT } from '../../stores/i18n.ts';
import { showAlert, toast } from '../../stores/ui.ts';
import { $user } from '../../stores/user.ts';
import { formatDateTime } from '../../stores/dates.ts';

/** Where a notification's `route` action leads (SPEC §3 action params: route name and id). */
const ROUTE_PATHS: Record<string, (id: string | null) => string> = {
  Files: (id) => (id ? `/platform/files/${encodeURIComponent(id)}` : '/platform/files'),
  RecentUploads: () => '/platform/recent-uploads',
  Trash: () => '/platform/trash',
  Storage: () => '/user/settings/storage',
  Billing: () => '/user/settings/billing',
  TeamFolders: (id) => (id ? `/platform/team-folders/${encodeURIComponent(id)}` : '/platform/team-folders'),
  SharedWithMe: (id) => (id ? `/platform/shared-with-me/${encodeURIComponent(id)}` : '/platform/shared-with-me'),
};

/** How long a notification that was unread when the centre opened stays highlighted (SPEC §5). */
const HIGHLIGHT_MS = 1000;

/** Marks the unread ones read here at once and on the server (put back when that fails). */
function markRead(unread: NotificationData[], read: NotificationData[]): void {
  const now = new Date().toISOString();
  setNotifications([], [...unread.map((n) => ({ ...n, attributes: { ...n.attributes, read_at: now } })), ...read]);
  api.post('/api/user/notifications/read').catch(() => setNotifications(unread, read));
}

function setNotifications(unread: NotificationData[], read: NotificationData[]): void {
  const user = $user.get();
  if (!user) return;
  $user.set({ ...user, relationships: { ...user.relationships, unreadNotifications: { data: unread }, readNotifications: { data: read } } });
}

/**
 * The bell and the notification centre (SPEC §2): a 360 px panel grouped under unread and read,
 * "clear all" only when there is something to clear, closed by Escape or a click outside. Opening
 * it marks everything read: the panel keeps the grouping it opened with, the unread ones
 * highlighted for a second, while the bell's dot goes at once. A notification arriving on the live
 * stream (stores/live.ts) while the panel is open joins it at the top, highlighted and read.
 */
export function NotificationCenter({ side = 'right', sideOffset = 12 }: { side?: 'right' | 'bottom'; sideOffset?: number }) {
  // Local state: the sidebar and the phone top bar each hold a bell (one of them hidden by CSS).
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<{ unread: NotificationData[]; read: NotificationData[] } | null>(null);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const user = useStore($user);
  const t = useT();
  const unread = user?.relationships.unreadNotifications.data ?? [];
  const read = user?.relationships.readNotifications.data ?? [];

  useEffect(() => {
    if (highlighted.size === 0) return;
    const timer = setTimeout(() => setHighlighted(new Set()), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  // Arrivals while the panel is open: shown at the top of its unread group, and read like the others.
  useEffect(() => {
    if (!open || !shown || unread.length === 0) return;
    const ids = new Set(unread.map((n) => n.id));
    setShown({ unread: [...unread, ...shown.unread.filter((n) => !ids.has(n.id))], read: shown.read.filter((n) => !ids.has(n.id)) });
    setHighlighted(ids);
    markRead(unread, read);
  }, [open, unread]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setShown(null);
      return;
    }
    setShown({ unread, read });
    if (unread.length === 0) return;
    setHighlighted(new Set(unread.map((n) => n.id)));
    markRead(unread, read);
  };

  const clearAll = () => {
    setShown({ unread: [], read: [] });
    setNotifications([], []);
    api.delete('/api/user/notifications').catch(() => {
      setNotifications(unread, read);
      setShown({ unread, read });
      showAlert({ title: t('popup_error.title'), message: t('popup_error.message') });
    });
  };

  const answered = (id: string) => {
    clearAction(id);
    if (!shown) return;
    const strip = (list: NotificationData[]) => list.map((n) => (n.id === id ? { ...n, attributes: { ...n.attributes, action: null } } : n));
    setShown({ unread: strip(shown.unread), read: strip(shown.read) });
  };

  const groups = shown ?? { unread, read };
  const any = groups.unread.length + groups.read.length > 0;
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="relative rounded-control p-2 text-muted hover:bg-surface-2 hover:text-text"
          aria-label={unread.length > 0 ? `${t('notification_center')} (${unread.length} ${t('unread')})` : t('notification_center')}
        >
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
          aria-label={t('notification_center')}
          className="card z-50 flex max-h-[min(36rem,calc(100dvh-2rem))] w-[360px] max-w-[calc(100vw-1.5rem)] flex-col p-5 shadow-xl"
        >
          <div className="mb-4 flex items-center justify-between">
            <h2 className="text-lg font-bold">{t('notification_center')}</h2>
            {any && (
              <button type="button" className="link text-sm" onClick={clearAll}>
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
          <div className="-mx-1 overflow-y-auto px-1">
            {(
              [
                ['unread', groups.unread],
                ['read', groups.read],
              ] as const
            ).map(([key, list]) =>
              list.length === 0 ? null : (
                <section key={key} className="mb-3" aria-label={t(key)}>
                  <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">{t(key)}</h3>
                  <ul className="flex flex-col gap-2">
                    {list.map((n) => (
                      <NotificationRow key={n.id} notification={n} highlighted={key === 'unread' && highlighted.has(n.id)} onFollow={() => onOpenChange(false)} onAnswered={answered} />
                    ))}
                  </ul>
                </section>
              ),
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The notification without its action, in the user store and in the open panel (SPEC §4: cleared after an answer). */
function clearAction(id: string): void {
  const user = $user.get();
  if (!user) return;
  const strip = (list: NotificationData[]) => list.map((n) => (n.id === id ? { ...n, attributes: { ...n.attributes, action: null } } : n));
  setNotifications(strip(user.relationships.unreadNotifications.data), strip(user.relationships.readNotifications.data));
}

function NotificationRow({ notification, highlighted, onFollow, onAnswered }: { notification: NotificationData; highlighted: boolean; onFollow: () => void; onAnswered: (id: string) => void }) {
  const { title, description, created_at, action } = notification.attributes;
  const path = action?.type === 'route' ? ROUTE_PATHS[action.params.route]?.(action.params.id) : undefined;
  const invitation = action?.type === 'invitation' && action.params.id ? action.params.id : null;
  return (
    <li className={`rounded-control px-3 py-2 text-sm ${highlighted ? 'bg-brand-soft' : 'bg-surface-2 transition-colors duration-700'}`}>
      <p className="font-semibold break-words">{title}</p>
      <p id={`notification-${notification.id}-text`} className="break-words text-muted">
        {description}
      </p>
      <div className="mt-1 flex items-center justify-between gap-2">
        <time className="text-xs text-muted" dateTime={created_at}>
          {formatDateTime(created_at)}
        </time>
        {path && action && (
          <a href={path} className="link text-xs font-semibold" onClick={onFollow}>
            {action.params.button}
          </a>
        )}
      </div>
      {invitation && <InvitationAnswer id={invitation} describedBy={`notification-${notification.id}-text`} onAnswered={() => onAnswered(notification.id)} />}
    </li>
  );
}

/** Accept or decline a team invitation (SPEC §7: PUT or DELETE /api/teams/invitations/{id}, then a toast). */
function InvitationAnswer({ id, describedBy, onAnswered }: { id: string; describedBy: string; onAnswered: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const answer = async (accept: boolean) => {
    setBusy(true);
    try {
      await (accept ? acceptInvitation(id) : declineInvitation(id));
      onAnswered();
      // An open Shared with me list gains the folder (the live branch will push this instead).
      if (accept && $listing.get()?.source.kind === 'shared') void refreshListing();
      toast('success', accept ? t('teams.you_accepted_invitation') : t('teams.you_decline_invitation'));
    } catch (error) {
      showAlert({ title: t('popup_error.title'), message: error instanceof ApiError ? error.message : t('popup_error.message') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mt-2 flex gap-2">
      <button type="button" className="btn-primary px-3 py-1.5 text-xs" aria-describedby={describedBy} disabled={busy} onClick={() => void answer(true)}>
        {t('teams.accept')}
      </button>
      <button type="button" className="btn-secondary px-3 py-1.5 text-xs" aria-describedby={describedBy} disabled={busy} onClick={() => void answer(false)}>
        {t('teams.decline')}
      </button>
    </div>
  );
}
