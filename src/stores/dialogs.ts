import { atom } from 'nanostores';
import type { Item } from './files.ts';

/** The one open platform dialog, if any. */
export type Dialog =
  | { kind: 'create-folder'; parentId: string | null }
  | { kind: 'rename'; item: Item }
  | { kind: 'move'; items: Item[] }
  | { kind: 'preview'; item: Item }
  | { kind: 'import'; parentId: string | null }
  | { kind: 'share'; item: Item }
  | { kind: 'request-upload'; folder: Item | null }
  | { kind: 'create-team'; parentId: string | null }
  | { kind: 'convert-team'; folder: Item }
  | { kind: 'team-members' }
  | { kind: 'confirm'; title: string; message: string; confirm: string; danger?: boolean; run: () => Promise<void> };

export const $dialog = atom<Dialog | null>(null);

/**
 * Where focus goes back to when the dialog closes. Dialogs open from this store, not from a Radix
 * Trigger, so Radix cannot know: the opener is remembered here when the first dialog opens (a dialog
 * opened from another keeps the first one's opener).
 */
let opener: { element: HTMLElement | null; itemId: string | null } | null = null;

/** The element that opened the menu focus is in now (a context menu's trigger has no aria-controls). */
let menuOpener: HTMLElement | null = null;
export function rememberMenuOpener(): void {
  if (typeof document !== 'undefined' && !document.activeElement?.closest('[role=menu]')) menuOpener = document.activeElement as HTMLElement | null;
}

/** Gives focus back to what opened a menu that closed without opening a dialog. */
export function restoreMenuFocus(): void {
  if (!$dialog.get() && menuOpener?.isConnected) menuOpener.focus({ preventScroll: true });
}

function focusOrigin(): HTMLElement | null {
  const active = document.activeElement as HTMLElement | null;
  const menu = active?.closest<HTMLElement>('[role=menu]');
  if (!menu) return active;
  // A menu item unmounts as the menu closes: go back to what opened the menu.
  return (menu.id && document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`)) || menuOpener;
}

function itemOf(dialog: Dialog): string | null {
  if ('item' in dialog) return dialog.item.id;
  if (dialog.kind === 'move') return dialog.items[0]?.id ?? null;
  if (dialog.kind === 'convert-team') return dialog.folder.id;
  return null;
}

export function openDialog(dialog: Dialog): void {
  if (typeof document === 'undefined') return void $dialog.set(dialog);
  if (!$dialog.get()) opener = { element: focusOrigin(), itemId: itemOf(dialog) };
  // The preview's arrows open the next file: closing comes back to the last one shown.
  else if (opener && dialog.kind === 'preview') opener.itemId = dialog.item.id;
  $dialog.set(dialog);
}
export function closeDialog(): void {
  $dialog.set(null);
}

/**
 * Puts focus back where the dialog was opened from (Radix's onCloseAutoFocus calls this). An item of
 * the virtualised list is not focusable itself: the list is focused and told which item is active.
 */
export function restoreFocus(): void {
  if ($dialog.get()) return; // one dialog replaced another: the opener stays for the last one
  const from = opener;
  opener = null;
  if (!from) return;
  const usable = from.element?.isConnected && from.element !== document.body ? from.element : null;
  // Opened from the list (or from something gone since): back to the list, on the dialog's item.
  if (from.itemId && (!usable || usable.matches('[role=listbox][data-testid=items]'))) focusListItem(from.itemId);
  else usable?.focus();
}

/**
 * Focuses the file list with this item active (scrolled to, Enter opens it). An item of the
 * virtualised list is not focusable itself: the list is focused first (a list focused with no
 * active item would make its first one active), then told which item is. False without a list.
 */
export function focusListItem(itemId: string): boolean {
  const list = document.querySelector<HTMLElement>('[role=listbox][data-testid=items]');
  if (!list) return false;
  list.focus({ preventScroll: true });
  list.dispatchEvent(new CustomEvent('activate-item', { detail: itemId }));
  return true;
}
