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
  | { kind: 'confirm'; title: string; message: string; confirm: string; danger?: boolean; run: () => Promise<void> };

export const $dialog = atom<Dialog | null>(null);

export function openDialog(dialog: Dialog): void {
  $dialog.set(dialog);
}
export function closeDialog(): void {
  $dialog.set(null);
}
