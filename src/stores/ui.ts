import { atom, computed } from 'nanostores';

export const TOAST_LIFETIME_MS = 6000;

export interface Toast {
  id: number;
  type: 'success' | 'danger';
  message: string;
  /** Takes the change back (trash, move, favourite), offered for the toast's lifetime. */
  undo?: () => Promise<void>;
}
export const $toasts = atom<Toast[]>([]);
let nextToast = 1;

/** At most this many toasts show at once; a new one pushes the oldest out. */
export const TOAST_LIMIT = 3;

/** Shows a toast for a few seconds; the id lets the caller take it back when the news changes. */
export function toast(type: Toast['type'], message: string, undo?: () => Promise<void>): number {
  const id = nextToast++;
  $toasts.set([...$toasts.get(), { id, type, message, ...(undo ? { undo } : {}) }].slice(-TOAST_LIMIT));
  setTimeout(() => dismissToast(id), TOAST_LIFETIME_MS);
  return id;
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}

/** Where a panel fixed at the bottom of the screen sits, in viewport pixels. */
export interface PanelBox {
  left: number;
  right: number;
  top: number;
}

/** Panels fixed at the bottom of the screen (the upload queue), by name: toasts stack above them. */
export const $bottomPanels = atom<Record<string, PanelBox>>({});

const panelRefs = new Map<string, (el: HTMLElement | null) => (() => void) | undefined>();

/**
 * A ref for a panel fixed at the bottom of the screen: while it is mounted, its box is kept in
 * $bottomPanels (again as it or the window changes size). One stable callback per name.
 */
export function bottomPanel(name: string): (el: HTMLElement | null) => (() => void) | undefined {
  let ref = panelRefs.get(name);
  if (!ref) {
    ref = (el) => {
      if (!el) return undefined;
      const report = () => {
        const { left, right, top } = el.getBoundingClientRect();
        $bottomPanels.set({ ...$bottomPanels.get(), [name]: { left, right, top } });
      };
      // First reported by the observer, once the page is laid out, rather than here: measuring as the
      // panel mounts would force a layout of the page the app is still drawing.
      const observer = new ResizeObserver(report);
      observer.observe(el);
      window.addEventListener('resize', report);
      return () => {
        observer.disconnect();
        window.removeEventListener('resize', report);
        const { [name]: _gone, ...rest } = $bottomPanels.get();
        $bottomPanels.set(rest);
      };
    };
    panelRefs.set(name, ref);
  }
  return ref;
}

/**
 * How high above the screen's bottom edge the toasts must start to clear every bottom panel under
 * their column (`gap` above the highest); 0 when none is under it.
 */
export function toastLift(column: { left: number; right: number }, panels: PanelBox[], viewportHeight: number, gap: number): number {
  let lift = 0;
  for (const panel of panels) {
    if (panel.left < column.right && panel.right > column.left) lift = Math.max(lift, viewportHeight - panel.top);
  }
  return lift > 0 ? Math.ceil(lift + gap) : 0;
}

/** The alert popup of SPEC §8: title, message, optional emoji, button text and style. */
export interface Alert {
  kind: 'alert' | 'success';
  title: string;
  message: string;
  emoji?: string;
  buttonText?: string;
  buttonStyle?: 'danger' | 'primary';
}
export const $alert = atom<Alert | null>(null);

export function showAlert(alert: Omit<Alert, 'kind'>): void {
  $alert.set({ kind: 'alert', ...alert });
}
export function showSuccess(alert: Omit<Alert, 'kind'>): void {
  $alert.set({ kind: 'success', ...alert });
}
export function closeAlert(): void {
  $alert.set(null);
}

/** Panels that close on Escape and on a backdrop click (Radix popovers handle their own Escape). */
export const $mobileMenuOpen = atom(false);

/** The dimmed backdrop shows for popup, alert, success and confirm events (SPEC §2). */
export const $backdrop = computed([$alert, $mobileMenuOpen], (alert, menu) => alert !== null || menu);

export function closeTopmost(): boolean {
  if ($alert.get()) {
    closeAlert();
    return true;
  }
  if ($mobileMenuOpen.get()) {
    $mobileMenuOpen.set(false);
    return true;
  }
  return false;
}

export const $loggingOut = atom(false);
