import { useStore } from '@nanostores/react';
import { ArrowDownWideNarrow, Check, Ellipsis, LayoutGrid, List, ListChecks, PanelRight, Search, Trash, Users } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useRovingFocus } from '../../components/roving.ts';
import { openDialog } from '../../stores/dialogs.ts';
import { $infoPanel, $multiSelectMode, $sorting, $viewType, emptyTrash, sortingFor, toggleMultiSelectMode, type Item, type Listing, type Sorting } from '../../stores/files.ts';
import { t as translate, useT } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';
import { actionsFor, canWriteHere, CreateFolderIcon, openCreateFolder, openTeamFolderDialog, runAction, type Action, type ActionContext } from './actions.ts';
import { SelectAllBox, SelectionCount } from './SelectAll.tsx';
import { UploadButton } from './UploadButton.tsx';

export function ToolButton({ label, onClick, pressed, children, danger, className = 'inline-flex', slot }: { label: string; onClick: () => void; pressed?: boolean; children: ReactNode; danger?: boolean; className?: string; slot?: boolean }) {
  return (
    <button
      type="button"
      data-action-slot={slot ? '' : undefined}
      onClick={onClick}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      className={`${className} size-9 shrink-0 items-center justify-center rounded-control transition-colors ${pressed ? 'bg-brand-soft text-brand' : danger ? 'text-danger hover:bg-danger/10' : 'text-muted hover:bg-surface-2 hover:text-text'}`}
    >
      {children}
    </button>
  );
}

/** Each field with the direction people expect when they pick it: names A→Z, newest and largest first. */
const SORT_FIELDS: { field: Sorting['field']; key: string; natural: Sorting['direction']; trashOnly?: boolean }[] = [
  { field: 'name', key: 'files.sort_name', natural: 'asc' },
  { field: 'created_at', key: 'files.sort_date', natural: 'desc' },
  { field: 'size', key: 'files.sort_size', natural: 'desc' },
  { field: 'type', key: 'files.sort_type', natural: 'asc' },
  { field: 'location', key: 'files.original_location', natural: 'asc', trashOnly: true },
];

/** The toolbar: creating, the selection's actions (the same definitions as the context menu), and view choices; one tab stop. */
export function Toolbar({ listing, selected, favourites, onSearch }: { listing: Listing; selected: Item[]; favourites: Set<string>; onSearch?: () => void }) {
  const t = useT();
  const view = useStore($viewType);
  const sorting = sortingFor(listing.source, useStore($sorting));
  const info = useStore($infoPanel);
  const multi = useStore($multiSelectMode);
  const { source } = listing;
  const ctx = { source, items: selected, favourites };
  const actions = actionsFor(ctx).filter((a) => a.id !== 'info' && a.id !== 'open');
  const { bar, room } = useActionRoom(actions.length, selected.length);
  // One tab stop, as a toolbar is (WAI-ARIA): Left, Right, Home and End move between its buttons.
  const roving = useRovingFocus(bar, 'button', 'horizontal');
  const shown = actions.length > room ? actions.slice(0, Math.max(0, room - 1)) : actions;
  const overflow = actions.slice(shown.length);
  const sortFields = SORT_FIELDS.filter((f) => !f.trashOnly || source.kind === 'trash');
  // On a phone, while something is selected, the bar is the selection's: its count, select all,
  // its actions. Creating, searching and view choices come back when the selection is cleared.
  const quiet = selected.length > 0 ? 'max-sm:hidden' : '';
  // In a team folder (not the list of them) a member uploads and creates folders only with can_edit.
  const teamFolder = (source.kind === 'team' || source.kind === 'shared') && source.id !== null;
  const uploadsHere = (source.kind === 'folder' || source.kind === 'latest' || teamFolder) && canWriteHere();
  const foldersHere = (source.kind === 'folder' || teamFolder) && canWriteHere();

  return (
    <div ref={bar} {...roving} className="flex min-w-0 basis-[340px] grow flex-nowrap items-center justify-end gap-1" role="toolbar" aria-label={t('files.toolbar')}>
      {uploadsHere && <UploadButton parentId={source.kind === 'latest' ? null : source.id} className={quiet} />}
      {source.kind === 'team' && source.id === null && (
        <button type="button" className={`btn-primary mr-1 shrink-0 px-3 py-2 text-sm whitespace-nowrap ${quiet}`} onClick={() => openTeamFolderDialog({ kind: 'create-team', parentId: null })}>
          <Users className="size-4" aria-hidden />
          <span className="hidden sm:inline">{t('teams.create')}</span>
          <span className="sr-only sm:hidden">{t('teams.create')}</span>
        </button>
      )}
      {foldersHere && (
        <button type="button" className={`btn-primary mr-1 shrink-0 px-3 py-2 text-sm whitespace-nowrap ${quiet}`} onClick={() => openCreateFolder(source.kind === 'folder' || teamFolder ? source.id : null, listing.abilities)}>
          <CreateFolderIcon className="size-4" aria-hidden />
          <span className="hidden sm:inline">{t('actions.create_folder')}</span>
          <span className="sr-only sm:hidden">{t('actions.create_folder')}</span>
        </button>
      )}
      {source.kind === 'trash' && source.id === null && listing.items.length > 0 && (
        <button
          type="button"
          className={`btn-secondary mr-1 shrink-0 px-3 py-2 text-sm whitespace-nowrap text-danger ${quiet}`}
          onClick={() =>
            openDialog({
              kind: 'confirm',
              title: t('files.empty_trash_title'),
              message: t('files.empty_trash_text'),
              confirm: t('files.empty_trash'),
              danger: true,
              run: async () => {
                await emptyTrash();
                toast('success', translate('files.trash_cleared'));
              },
            })
          }
        >
          <Trash className="size-4" aria-hidden />
          {t('files.empty_trash')}
        </button>
      )}
      {selected.length > 0 && <SelectionCount count={selected.length} />}
      {shown.map((action) => (
        <ToolButton key={action.id} slot label={action.label(ctx)} danger={action.danger} onClick={() => void runAction(action, ctx)}>
          <action.Icon className="size-[18px]" aria-hidden />
        </ToolButton>
      ))}
      {overflow.length > 0 && <MoreActions actions={overflow} ctx={ctx} />}
      {actions.length > 0 && <span className="mx-1 h-6 w-px bg-border" aria-hidden />}
      {onSearch && (
        <ToolButton label={t('files.search')} onClick={onSearch} className={`inline-flex ${quiet}`}>
          <Search className="size-[18px]" aria-hidden />
        </ToolButton>
      )}
      {source.kind !== 'latest' && !((source.kind === 'team' || source.kind === 'shared') && source.id === null) && (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger asChild>
            <button type="button" aria-label={t('files.sort')} title={t('files.sort')} className={`inline-flex size-9 items-center justify-center rounded-control text-muted hover:bg-surface-2 hover:text-text ${quiet}`}>
              <ArrowDownWideNarrow className="size-[18px]" aria-hidden />
            </button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content align="end" sideOffset={6} className="card z-50 min-w-[200px] p-1.5 shadow-xl">
              <DropdownMenu.Label className="px-3 py-1.5 text-xs font-semibold tracking-wide text-muted uppercase">{t('files.sort')}</DropdownMenu.Label>
              <DropdownMenu.RadioGroup
                value={sorting.field}
                onValueChange={(value) => {
                  const picked = sortFields.find((f) => f.field === value);
                  if (picked && picked.field !== sorting.field) $sorting.set({ field: picked.field, direction: picked.natural });
                }}
              >
                {sortFields.map(({ field, key }) => (
                  <MenuRadio key={field} value={field} checked={sorting.field === field}>
                    {source.kind === 'trash' && field === 'created_at' ? t('files.sort_deleted') : t(key)}
                  </MenuRadio>
                ))}
              </DropdownMenu.RadioGroup>
              <DropdownMenu.Separator className="my-1 h-px bg-border" />
              <DropdownMenu.RadioGroup value={sorting.direction} onValueChange={(value) => $sorting.set({ ...sorting, direction: value === 'asc' ? 'asc' : 'desc' })}>
                <MenuRadio value="asc" checked={sorting.direction === 'asc'}>
                  {t('files.ascending')}
                </MenuRadio>
                <MenuRadio value="desc" checked={sorting.direction === 'desc'}>
                  {t('files.descending')}
                </MenuRadio>
              </DropdownMenu.RadioGroup>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      )}
      {/* The list's header has the box; in a grid, and on a phone (no header), it is here. */}
      {listing.items.length > 0 && <SelectAllBox listing={listing} className={view === 'grid' ? 'inline-flex size-9' : 'inline-flex size-9 sm:hidden'} />}
      <ToolButton label={view === 'list' ? t('files.view_grid') : t('files.view_list')} onClick={() => $viewType.set(view === 'list' ? 'grid' : 'list')} className={`inline-flex ${quiet}`}>
        {view === 'list' ? <LayoutGrid className="size-[18px]" aria-hidden /> : <List className="size-[18px]" aria-hidden />}
      </ToolButton>
      <ToolButton label={t('files.multi_select')} pressed={multi} onClick={toggleMultiSelectMode}>
        <ListChecks className="size-[18px]" aria-hidden />
      </ToolButton>
      {/* The details panel has room only on wide screens. */}
      <ToolButton label={t('files.info_panel')} pressed={info} onClick={() => $infoPanel.set(!info)} className="hidden shrink-0 xl:inline-flex">
        <PanelRight className="size-[18px]" aria-hidden />
      </ToolButton>
    </div>
  );
}

function MenuRadio({ value, checked, children }: { value: string; checked: boolean; children: ReactNode }) {
  return (
    <DropdownMenu.RadioItem value={value} className="flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2">
      <span className="flex size-4 items-center justify-center">{checked && <Check className="size-4 text-brand" aria-hidden />}</span>
      {children}
    </DropdownMenu.RadioItem>
  );
}

/** One icon button and the gap after it: what each selection action takes on the bar. */
const SLOT = 40;

/**
 * How many selection actions fit on the bar without it wrapping: its width less what the other
 * controls take, in icon slots. Measured again whenever the bar, the list of actions or the
 * selection's count (its "N selected" label) changes size.
 */
function useActionRoom(count: number, selectedCount: number) {
  const bar = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(count);
  useLayoutEffect(() => {
    const el = bar.current;
    // Nothing selected, no action to fit: no layout forced while the screen first draws.
    if (!el || count === 0) return;
    const measure = () => {
      let others = 0;
      for (const child of el.children) {
        if (child.hasAttribute('data-action-slot') || !(child instanceof HTMLElement) || child.offsetWidth === 0) continue;
        const style = getComputedStyle(child);
        others += child.offsetWidth + parseFloat(style.marginLeft) + parseFloat(style.marginRight) + 4;
      }
      setRoom(Math.max(0, Math.floor((el.clientWidth - others) / SLOT)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [count, selectedCount]);
  return { bar, room };
}

function MoreActions({ actions, ctx }: { actions: Action[]; ctx: ActionContext }) {
  const t = useT();
  return (
    // Not modal, like the item menus: a modal menu hides the page while its skip link stays focusable.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" data-action-slot aria-label={t('files.more_actions')} title={t('files.more_actions')} className="inline-flex size-9 shrink-0 items-center justify-center rounded-control text-muted hover:bg-surface-2 hover:text-text">
          <Ellipsis className="size-[18px]" aria-hidden />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="card z-50 min-w-[200px] p-1.5 shadow-xl">
          {actions.map((action) => (
            <DropdownMenu.Item
              key={action.id}
              onSelect={() => void runAction(action, ctx)}
              className={`flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2 ${action.danger ? 'text-danger' : 'text-text'}`}
            >
              <action.Icon className="size-4" aria-hidden />
              {action.label(ctx)}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
