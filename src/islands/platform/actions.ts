import { Download, FolderInput, FolderOpen, Inbox, Share2, FolderPlus, Info, Pencil, RotateCcw, Star, StarOff, Trash2, Users, X } from 'lucide-react';
import type { ComponentType } from 'react';
import { openPage } from '@nanostores/router';
import { startDownload } from '../../components/download.ts';
import { allMay, may, type Abilities } from '../../stores/abilities.ts';
import { ApiError } from '../../stores/api.ts';
import { openDialog } from '../../stores/dialogs.ts';
import { $infoPanel, $listing, addFavourites, isTeamSource, moveItems, removeFavourite, restoreItems, trashItems, type Item, type Source, type TreeNode } from '../../stores/files.ts';
import { $tree, isWithin } from '../../stores/tree.ts';
import { t } from '../../stores/i18n.ts';
import { $router } from '../../stores/router.ts';
import { showAlert, toast } from '../../stores/ui.ts';
import { $user } from '../../stores/user.ts';
import { myPermission } from '../../stores/teams.ts';

/**
 * The item actions, defined once: the toolbar, the context menu and the keyboard all read this
 * list, so an action looks and behaves the same wherever it is offered. Whether an action is offered
 * for an item is the server's word: each item carries `meta.abilities` (stores/abilities.ts).
 */
export interface ActionContext {
  source: Source;
  items: Item[];
  favourites: Set<string>;
}

export interface Action {
  id: string;
  label: (ctx: ActionContext) => string;
  Icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  shortcut?: string;
  danger?: boolean;
  /** Whether the action applies to these items in this place. */
  when: (ctx: ActionContext) => boolean;
  run: (ctx: ActionContext) => void | Promise<void>;
}

const inTrash = (ctx: ActionContext) => ctx.source.kind === 'trash';
const one = (ctx: ActionContext) => ctx.items.length === 1;
const some = (ctx: ActionContext) => ctx.items.length > 0;
const onlyFolders = (ctx: ActionContext) => some(ctx) && ctx.items.every((i) => i.type === 'folder');
/** In a team folder, or the list of them (no `id`): the list holds whole teams, not their files. */
const teamList = (ctx: ActionContext) => isTeamSource(ctx.source) && ctx.source.id === null;
/** Sharing, upload requests and favourites are the owner's own: not in folders shared with me. */
const ownerPlace = (ctx: ActionContext) => ctx.source.kind === 'folder' || (ctx.source.kind === 'team' && ctx.source.id !== null);

/**
 * Whether the open place takes uploads and new folders at all: the owner's places do (a restriction
 * flag answers with its popup, SPEC §5, from the listing's abilities); a folder shared with me only
 * with can_edit; the lists of team folders and the trash never.
 */
export function canWriteHere(): boolean {
  const listing = $listing.get();
  if (!listing || listing.source.kind === 'trash' || (isTeamSource(listing.source) && listing.source.id === null)) return false;
  if (listing.source.kind !== 'shared') return true;
  return listing.abilities ? listing.abilities.upload || listing.abilities.create_folder : myPermission(listing.team, 'shared') === 'can_edit';
}

/** Runs an action, turning a refusal into the alert popup (SPEC §8). */
export async function runAction(action: Action, ctx: ActionContext): Promise<void> {
  try {
    await action.run(ctx);
  } catch (error) {
    showAlert({ title: t('popup_error.title'), message: error instanceof ApiError ? error.message : t('popup_error.message') });
  }
}

export const ACTIONS: Action[] = [
  {
    // In the menu for touch and keyboard users, who have no double-click; the toolbar leaves it out.
    id: 'open',
    label: () => t('actions.open'),
    Icon: FolderOpen,
    shortcut: 'Enter',
    when: (ctx) => one(ctx) && !(inTrash(ctx) && ctx.items[0]!.type === 'file'),
    run: (ctx) => openItem(ctx.items[0]!, ctx.source),
  },
  {
    id: 'rename',
    label: () => t('actions.rename'),
    Icon: Pencil,
    shortcut: 'F2',
    when: (ctx) => one(ctx) && allMay(ctx.items, 'rename'),
    run: (ctx) => openDialog({ kind: 'rename', item: ctx.items[0]! }),
  },
  {
    id: 'share',
    label: () => t('sharing.action'),
    Icon: Share2,
    when: (ctx) => ctx.source.kind !== 'latest' && one(ctx) && allMay(ctx.items, 'share'),
    run: (ctx) => openDialog({ kind: 'share', item: ctx.items[0]! }),
  },
  {
    id: 'request-upload',
    label: () => t('requests.action'),
    Icon: Inbox,
    // A request lets strangers put files into the folder: the owner must be able to share it and to upload into it.
    when: (ctx) => ctx.source.kind !== 'latest' && one(ctx) && allMay(ctx.items, 'share') && allMay(ctx.items, 'upload'),
    run: (ctx) => openDialog({ kind: 'request-upload', folder: ctx.items[0]! }),
  },
  {
    // SPEC §5: blocked with the temporary-disabled alert when team folders are off for the account.
    id: 'convert-team',
    label: () => t('teams.convert'),
    Icon: Users,
    when: (ctx) => ctx.source.kind === 'folder' && one(ctx) && ctx.items[0]!.type === 'folder',
    run: (ctx) => openTeamFolderDialog({ kind: 'convert-team', folder: ctx.items[0]! }),
  },
  {
    id: 'move',
    label: () => t('actions.move'),
    Icon: FolderInput,
    when: (ctx) => !teamList(ctx) && allMay(ctx.items, 'move'),
    run: (ctx) => openDialog({ kind: 'move', items: ctx.items }),
  },
  {
    id: 'favourite',
    label: () => t('actions.add_favourite'),
    Icon: Star,
    when: (ctx) => ownerPlace(ctx) && onlyFolders(ctx) && ctx.items.some((i) => !ctx.favourites.has(i.id)),
    run: async (ctx) => {
      const added = ctx.items.filter((i) => !ctx.favourites.has(i.id)).map((i) => i.id);
      await addFavourites(added);
      toast('success', t('actions.favourite_added'), async () => {
        for (const id of added) await removeFavourite(id);
      });
    },
  },
  {
    id: 'unfavourite',
    label: () => t('actions.remove_favourite'),
    Icon: StarOff,
    when: (ctx) => ownerPlace(ctx) && onlyFolders(ctx) && ctx.items.every((i) => ctx.favourites.has(i.id)),
    run: async (ctx) => {
      for (const item of ctx.items) await removeFavourite(item.id);
    },
  },
  {
    id: 'download',
    label: (ctx) => (ctx.items.length === 1 && ctx.items[0]!.type === 'file' ? t('actions.download') : t('actions.download_zip')),
    Icon: Download,
    // Offered for every live selection: where the server says no (the account's downloads are off),
    // the popup says why (SPEC §8) rather than the button vanishing.
    when: (ctx) => !inTrash(ctx) && some(ctx),
    run: (ctx) => {
      if (!allMay(ctx.items, 'download')) {
        showAlert({ title: t('restrictions.title'), message: t('restrictions.download_temporarily_disabled'), emoji: '🔒' });
        return;
      }
      const url = downloadUrl(ctx.items);
      if (url) startDownload(url);
    },
  },
  {
    id: 'info',
    label: () => t('actions.info'),
    Icon: Info,
    when: (ctx) => one(ctx),
    run: () => $infoPanel.set(true),
  },
  {
    id: 'restore',
    label: () => t('actions.restore'),
    Icon: RotateCcw,
    when: (ctx) => allMay(ctx.items, 'restore'),
    run: async (ctx) => {
      await restoreItems(ctx.items);
      toast('success', t('actions.restored', { count: ctx.items.length }));
    },
  },
  {
    id: 'trash',
    label: () => t('actions.trash'),
    Icon: Trash2,
    shortcut: 'Del',
    danger: true,
    when: (ctx) => !inTrash(ctx) && !teamList(ctx) && allMay(ctx.items, 'delete'),
    run: async (ctx) => {
      // SPEC §2: after the open folder is deleted (or a folder holding it), the app navigates back
      // to the nearest place that still exists; it leaves first so the gone folder is not reloaded.
      const open = ctx.source.kind === 'folder' || isTeamSource(ctx.source) ? ctx.source.id : null;
      const tree = $tree.get() ?? [];
      const gone = open ? ctx.items.find((i) => i.id === open || isWithin(tree, open, i.id)) : undefined;
      if (gone) {
        const parent = gone.attributes.parent_id;
        const route = routeFor(ctx.source);
        if (parent) openPage($router, route, { id: parent });
        else openPage($router, route);
      }
      const trashed = ctx.items;
      await trashItems(trashed);
      toast('success', t('actions.trashed', { count: trashed.length }), () => restoreItems(trashed));
    },
  },
  {
    id: 'delete-forever',
    label: () => t('actions.delete_forever'),
    Icon: X,
    shortcut: 'Del',
    danger: true,
    when: (ctx) => inTrash(ctx) && allMay(ctx.items, 'delete'),
    run: (ctx) =>
      openDialog({
        kind: 'confirm',
        title: t('actions.delete_forever_title', { count: ctx.items.length }),
        message: t('actions.delete_forever_text'),
        confirm: t('actions.delete_forever'),
        danger: true,
        run: async () => {
          await trashItems(ctx.items, true);
          toast('success', t('actions.deleted', { count: ctx.items.length }));
        },
      }),
  },
];

export function actionsFor(ctx: ActionContext): Action[] {
  return ACTIONS.filter((a) => a.when(ctx));
}

/**
 * Opens the create-folder popup, unless the open folder says no new folders go into it (the
 * account may not create folders: SPEC §8's popup instead). `here` is the listing's own abilities.
 */
export function openCreateFolder(parentId: string | null, here?: Abilities | null): void {
  if (here && !may({ meta: { abilities: here } }, 'create_folder')) {
    showAlert({ title: t('restrictions.title'), message: t('restrictions.create_folder_temporarily_disabled'), emoji: '🔒' });
    return;
  }
  openDialog({ kind: 'create-folder', parentId });
}
export { FolderPlus as CreateFolderIcon };

/** Opens the create or convert team folder popup, unless team folders are off for the account (SPEC §5). */
export function openTeamFolderDialog(dialog: { kind: 'create-team'; parentId: string | null } | { kind: 'convert-team'; folder: Item }): void {
  if ($user.get()?.meta.restrictions.canCreateTeamFolder === false) {
    showAlert({ title: t('restrictions.title'), message: t('teams.create_team_folder_temporarily_disabled'), emoji: '🔒' });
    return;
  }
  openDialog(dialog);
}

/** The route that lists folders of this source's kind. */
export function routeFor(source: Source): 'files' | 'trash' | 'teamFolders' | 'sharedWithMe' {
  if (source.kind === 'trash') return 'trash';
  if (source.kind === 'team') return 'teamFolders';
  if (source.kind === 'shared') return 'sharedWithMe';
  return 'files';
}

/** Opens an item: a folder in the browser (trash and team folders stay in their place), a file in the viewer. */
export function openItem(item: Item, source: Source): void {
  if (item.type === 'folder') {
    openPage($router, routeFor(source), { id: item.id });
    return;
  }
  if (source.kind === 'trash') {
    $infoPanel.set(true);
    return;
  }
  openDialog({ kind: 'preview', item });
}

/** Where the selection downloads from: one file's own URL, or a streamed zip of everything else. */
export function downloadUrl(items: Item[]): string | null {
  if (items.length === 1 && items[0]!.type === 'file') return items[0]!.attributes.file_url ? `${items[0]!.attributes.file_url}?download=1` : null;
  if (!items.length) return null;
  return `/api/zip?${new URLSearchParams({ items: items.map((i) => `${i.id}|${i.type}`).join(',') })}`;
}

/** Where each item is now, from the open listing and the folder tree; null when one is not known. */
function currentParents(items: { id: string }[]): Map<string, string | null> | null {
  const known = new Map<string, string | null>();
  for (const item of $listing.get()?.items ?? []) known.set(item.id, item.attributes.parent_id);
  const walk = (nodes: TreeNode[]): void => {
    for (const n of nodes) {
      known.set(n.id, n.parent_id);
      walk(n.folders);
    }
  };
  walk($tree.get() ?? []);
  return items.every((i) => known.has(i.id)) ? new Map(items.map((i) => [i.id, known.get(i.id)!])) : null;
}

/** Moves by drag and drop or the picker, with the same feedback everywhere, and Undo moving them back. */
export async function moveWithFeedback(items: { id: string; type: 'folder' | 'file' }[], toId: string | null): Promise<void> {
  try {
    const from = currentParents(items);
    await moveItems(items, toId);
    const back = from
      ? async () => {
          const byParent = new Map<string | null, typeof items>();
          for (const item of items) byParent.set(from.get(item.id)!, [...(byParent.get(from.get(item.id)!) ?? []), item]);
          for (const [parent, group] of byParent) await moveItems(group, parent);
        }
      : undefined;
    toast('success', t('actions.moved', { count: items.length }), back);
  } catch (error) {
    showAlert({ title: t('popup_error.title'), message: error instanceof ApiError ? error.message : t('popup_error.message') });
  }
}

/** A navigation-tree node as an item, so the tree offers the same actions as the list (with the node's abilities). */
export function treeNodeItem(node: { id: string; name: string; color: string | null; emoji: unknown; parent_id: string | null; abilities?: Abilities | undefined }): Item {
  return {
    ...(node.abilities ? { meta: { abilities: node.abilities } } : {}),
    id: node.id,
    type: 'folder',
    attributes: { name: node.name, color: node.color, emoji: node.emoji, items: null, parent_id: node.parent_id, deleted_at: null, mimetype: null, file_url: null, thumbnail: null, size: 0, created_at: '', updated_at: '' },
    relationships: { shared: null },
  };
}
