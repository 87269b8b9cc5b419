import type { ItemRef } from '../../stores/files.ts';

/** Drag-and-drop of items: our own data type, so files dragged in from the desktop are not mistaken for items. */
export const ITEMS_MIME = 'application/x-cloud-drive-items';

export function setDragItems(event: React.DragEvent, items: ItemRef[], label: string): void {
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData(ITEMS_MIME, JSON.stringify(items.map(({ id, type }) => ({ id, type }))));
  event.dataTransfer.setData('text/plain', label);
}

export function hasDragItems(event: React.DragEvent): boolean {
  return event.dataTransfer.types.includes(ITEMS_MIME);
}

export function readDragItems(event: React.DragEvent): ItemRef[] {
  try {
    const parsed: unknown = JSON.parse(event.dataTransfer.getData(ITEMS_MIME));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((x): x is ItemRef => !!x && typeof x.id === 'string' && (x.type === 'folder' || x.type === 'file'));
  } catch {
    return [];
  }
}

/** Props that make an element a drop target for items, moving them into `folderId`. */
export function dropTarget(folderId: string | null, onDrop: (items: ItemRef[], folderId: string | null) => void, setOver: (over: boolean) => void) {
  return {
    onDragOver: (event: React.DragEvent) => {
      if (!hasDragItems(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (event: React.DragEvent) => {
      setOver(false);
      if (!hasDragItems(event)) return;
      event.preventDefault();
      const items = readDragItems(event).filter((i) => i.id !== folderId);
      if (items.length) onDrop(items, folderId);
    },
  };
}
