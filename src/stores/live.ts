import type { NotificationData } from '../server/notifications/service.ts';
import { $listing, loadTree, refreshListing } from './files.ts';
import { refreshStorageUsage } from './storage.ts';
import { $user, loadUser } from './user.ts';

/**
 * The signed-in page's one live event stream (GET /api/events): notifications land in the bell as
 * they are stored (with a short sound unless the user muted it), and a change to the folder on
 * screen refreshes its listing, the navigation tree and the storage meter, debounced, keeping
 * selection and scroll.
 * The browser's EventSource reconnects by itself after a dropped connection (resuming with
 * Last-Event-ID); a refused one (429, 401, a restart) is opened again here with a growing pause.
 */

const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
/** Changes arriving together (a folder upload, a big move) refresh the listing once. */
const REFRESH_DEBOUNCE_MS = 250;

/** Notifications that come with a change to the user resource (failedPayments, restrictions). */
const BILLING = new Set(['insufficient-balance', 'gift', 'subscription-created']);

let source: EventSource | null = null;
let lastEventId: string | null = null;
let failures = 0;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
let dropped = false;

/** Opens the stream once per page; answers a function that closes it. */
export function startLive(): () => void {
  if (typeof EventSource === 'undefined' || source) return stopLive;
  lastEventId = newestKnown();
  connect();
  return stopLive;
}

export function stopLive(): void {
  clearTimeout(reopenTimer);
  source?.close();
  source = null;
}

function connect(): void {
  const url = lastEventId ? `/api/events?last_event_id=${encodeURIComponent(lastEventId)}` : '/api/events';
  const es = new EventSource(url);
  source = es;
  es.addEventListener('open', () => {
    failures = 0;
    // Back after a gap: item changes are not replayed, so what is on screen is fetched again.
    if (dropped) scheduleRefresh({ listing: true, tree: true });
    dropped = false;
  });
  es.addEventListener('notification', (event) => {
    lastEventId = (event as MessageEvent).lastEventId || lastEventId;
    const body = parse<{ data: NotificationData }>(event);
    if (body?.data) arrived(body.data);
  });
  es.addEventListener('items', (event) => {
    const body = parse<{ folder_ids: (string | null)[]; item_ids: string[]; everything?: true }>(event);
    // Too large a change to name (it came from another app node): whatever is on screen is fetched again.
    if (body?.everything) scheduleRefresh({ listing: true, tree: true });
    else if (body) itemsChanged(body.folder_ids, body.item_ids);
  });
  es.addEventListener('error', () => {
    dropped = true;
    if (es.readyState !== EventSource.CLOSED || source !== es) return;
    // Refused or gone for good: open a new one later (a new EventSource, so the resume point goes in the URL).
    const pause = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!;
    failures += 1;
    reopenTimer = setTimeout(() => {
      if (source === es) connect();
    }, pause);
  });
}

function parse<T>(event: Event): T | null {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return null;
  }
}

/** Where a stream opened by this page resumes: the newest notification the page already has. */
function newestKnown(): string | null {
  const user = $user.get();
  const all = [...(user?.relationships.unreadNotifications.data ?? []), ...(user?.relationships.readNotifications.data ?? [])];
  const newest = all.reduce<NotificationData | null>((best, n) => (!best || key(n) > key(best) ? n : best), null);
  return newest ? `${newest.attributes.created_at}/${newest.id}` : null;
}
const key = (n: NotificationData) => `${n.attributes.created_at}/${n.id}`;

/** A notification stored (or gathered again) for the user: to the top of the unread ones. */
function arrived(notification: NotificationData): void {
  const user = $user.get();
  if (!user) return;
  const others = (list: NotificationData[]) => list.filter((n) => n.id !== notification.id);
  const unread = others(user.relationships.unreadNotifications.data);
  const read = others(user.relationships.readNotifications.data);
  const fresh = notification.attributes.read_at === null;
  $user.set({
    ...user,
    relationships: {
      ...user.relationships,
      unreadNotifications: { data: fresh ? [notification, ...unread] : unread },
      readNotifications: { data: fresh ? read : [notification, ...read] },
    },
  });
  if (fresh && user.relationships.settings.data.attributes.notification_sound !== false) void playChime();
  // A failed payment (the third limits the account) or a gift: the red bar, the flags and the balance-bound parts of the user update now.
  if (BILLING.has(notification.attributes.category)) void loadUser().catch(() => undefined);
  // Removed from a team, or the team closed: a "Shared with me" place on screen loses it now.
  if (LEFT_TEAM.has(notification.attributes.category) && $listing.get()?.source.kind === 'shared') scheduleRefresh({ listing: true, tree: true });
}

/** Notices after which a team folder is out of the user's reach. */
const LEFT_TEAM = new Set(['team-member-removed', 'team-dissolved']);

let pending: { listing: boolean; tree: boolean } | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleRefresh(what: { listing: boolean; tree: boolean }): void {
  pending = { listing: (pending?.listing ?? false) || what.listing, tree: (pending?.tree ?? false) || what.tree };
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    const run = pending;
    pending = null;
    if (run?.listing) void refreshListing();
    if (run?.tree) {
      void loadTree();
      refreshStorageUsage();
    }
  }, REFRESH_DEBOUNCE_MS);
}

/** Whether a change touches the listing on screen: its folder, the folder itself, or the trash and recent views. */
function itemsChanged(folderIds: (string | null)[], itemIds: string[]): void {
  const listing = $listing.get();
  const source = listing?.source;
  const shown =
    !!source &&
    (source.kind !== 'folder' || folderIds.includes(source.id) || (source.id !== null && itemIds.includes(source.id)) || listing.items.some((i) => itemIds.includes(i.id)));
  scheduleRefresh({ listing: shown, tree: true });
}

let audio: AudioContext | null = null;

/** A short two-note chime made with WebAudio (no file, no network); silent where audio may not start yet. */
async function playChime(): Promise<void> {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') await audio.resume();
    const start = audio.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.12, 1320],
    ] as const) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.32);
    }
  } catch {
    // No audio device, or the browser wants a click first: the bell still shows it.
  }
}
