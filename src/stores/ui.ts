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
