import { useStore } from '@nanostores/react';
import { Clock, FolderOpen, Trash2, Users } from 'lucide-react';
import { useEffect } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import { openSpotlight } from '../../components/spotlight/Spotlight.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { $revealItem } from '../../stores/spotlight.ts';
import { $dialog, focusListItem } from '../../stores/dialogs.ts';
import { $infoPanel, $listing, $selectedItems, $sorting, clearSelection, loadTree, openListing, sameSource, selectItem, type Listing, type Source } from '../../stores/files.ts';
import { $tree, pathTo } from '../../stores/tree.ts';
import { useT } from '../../stores/i18n.ts';
import { $alert } from '../../stores/ui.ts';
import { $user } from '../../stores/user.ts';
import { canWriteHere, CreateFolderIcon, openCreateFolder, openTeamFolderDialog } from './actions.ts';
import { Breadcrumb } from './Breadcrumb.tsx';
import { EmptyState } from '../files/EmptyState.tsx';
import { Dialogs } from './dialogs/Dialogs.tsx';
import { InfoPanel } from './InfoPanel.tsx';
import { ItemsView } from './ItemsView.tsx';
import { Toolbar } from './Toolbar.tsx';
import { DropZone } from './DropZone.tsx';
import { PhonePlaces } from './PhonePlaces.tsx';
import { UploadFilesButton } from './UploadButton.tsx';
import { TeamBar } from './teams/TeamBar.tsx';

const sourceKey = (s: Source) => (s.kind === 'latest' ? 'latest' : `${s.kind}:${s.id ?? ''}`);

const PLACE_HOME: Partial<Record<Source['kind'], string>> = { team: '/platform/team-folders', shared: '/platform/shared-with-me' };
const PHONE_PLACE = { folder: 'home', latest: 'recent', trash: 'trash', team: 'team', shared: 'sharedWithMe' } as const;

/** The place a source belongs to, as the sidebar names it. */
export function placeName(t: (key: string) => string, source: Source): string {
  if (source.kind === 'latest') return t('locations.recent');
  if (source.kind === 'trash') return t('locations.trash');
  if (source.kind === 'team') return t('teams.team_folders');
  if (source.kind === 'shared') return t('teams.shared_with_me');
  return t('locations.home');
}

/** One file area screen (a folder, the trash, recent uploads): header, items, details panel, dialogs. */
export function Browser({ source }: { source: Source }) {
  const t = useT();
  const listing = useStore($listing);
  const sorting = useStore($sorting);
  const info = useStore($infoPanel);
  const user = useStore($user)!;
  const selected = useStore($selectedItems);
  const key = sourceKey(source);
  const current = listing && sameSource(listing.source, source) ? listing : null;
  const favourites = new Set((user.relationships.favourites.data as { id: string }[]).map((f) => f.id));

  useEffect(() => {
    clearSelection();
    void openListing(source, { quiet: true });
    // A folder opened from elsewhere than the tree (a link, the spotlight): its branch loads.
    const tree = $tree.get();
    if (tree !== null && source.kind === 'folder' && source.id && !pathTo(tree, source.id).length) void loadTree(source.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, sorting.field, sorting.direction]);

  useEffect(() => {
    // The listing is not in the store yet: the tree is told the open folder, to hold its branch.
    if ($tree.get() === null) void loadTree(source.kind === 'folder' ? source.id : null);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !$dialog.get() && !$alert.get()) clearSelection();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // A file opened from the spotlight: once its folder's list holds it, it is selected, scrolled to
  // and active in the focused list, so Enter previews it.
  const reveal = useStore($revealItem);
  useEffect(() => {
    if (!reveal || current?.status !== 'ready' || !current.items.some((i) => i.id === reveal)) return;
    $revealItem.set(null);
    selectItem(reveal, 'single');
    requestAnimationFrame(() => focusListItem(reveal));
  }, [reveal, current]);

  const place = placeName(t, source);
  useTitle(current?.root?.attributes.name ?? place);

  return (
    // The places, favourites and folder tree are in the sidebar (FilesNavigation) on large screens.
    <div className={`grid gap-6 ${info ? 'xl:grid-cols-[minmax(0,1fr)_280px]' : ''}`}>
      <section className="min-w-0" aria-busy={!current || current.status === 'loading'}>
        <PhonePlaces active={PHONE_PLACE[source.kind]} />
        <header className="mb-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-3">
          {current ? <Breadcrumb listing={current} /> : <h1 className="text-2xl font-bold tracking-tight">{place}</h1>}
          {current && <Toolbar listing={current} selected={selected} favourites={favourites} onSearch={openSpotlight} />}
        </header>
        {current?.team && <TeamBar listing={current} team={current.team} />}
        <DropZone source={source}>
          <div
            onClick={(e) => {
              if (e.target === e.currentTarget) clearSelection();
            }}
            className="min-h-[50dvh]"
          >
            <Body listing={current} favourites={favourites} />
          </div>
        </DropZone>
      </section>
      {info && (
        <div className="hidden xl:block">
          <InfoPanel selected={selected} root={current?.root ?? null} />
        </div>
      )}
      <Dialogs />
    </div>
  );
}

function Body({ listing, favourites }: { listing: Listing | null; favourites: Set<string> }) {
  const t = useT();
  if (!listing || listing.status === 'loading') {
    return (
      <div className="flex justify-center py-20">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  if (listing.status === 'missing') {
    return (
      <EmptyState icon={<FolderOpen className="size-7" aria-hidden />} title={t('files.load_failed')} text={t('files.not_found')}>
        <a className="btn-primary mt-5" href={PLACE_HOME[listing.source.kind] ?? '/platform/files'}>
          {PLACE_HOME[listing.source.kind] ? t('teams.open_place', { place: placeName(t, listing.source) }) : t('files.open_home')}
        </a>
      </EmptyState>
    );
  }
  // The popup has said what went wrong; the list only offers to try again.
  if (listing.status === 'error') {
    return (
      <div className="flex justify-center py-20">
        <button type="button" className="btn-secondary" onClick={() => void openListing(listing.source)}>
          {t('storage.retry')}
        </button>
      </div>
    );
  }
  if (listing.items.length === 0) {
    const { source } = listing;
    if (source.kind === 'trash') return <EmptyState icon={<Trash2 className="size-7" aria-hidden />} title={t('files.trash_empty_title')} text={t('files.trash_empty_text')} />;
    if (source.kind === 'latest') return <EmptyState icon={<Clock className="size-7" aria-hidden />} title={t('files.recent_empty_title')} text={t('files.recent_empty_text')} />;
    if (source.kind === 'team' && source.id === null) {
      return (
        <EmptyState icon={<Users className="size-7" aria-hidden />} title={t('teams.none_title')} text={t('teams.none_text')}>
          <button type="button" className="btn-primary mt-5" onClick={() => openTeamFolderDialog({ kind: 'create-team', parentId: null })}>
            <Users className="size-4" aria-hidden />
            {t('teams.create')}
          </button>
        </EmptyState>
      );
    }
    if (source.kind === 'shared' && source.id === null) return <EmptyState icon={<Users className="size-7" aria-hidden />} title={t('teams.shared_none_title')} text={t('teams.shared_none_text')} />;
    if (!canWriteHere()) return <EmptyState icon={<FolderOpen className="size-7" aria-hidden />} title={t('files.empty_title')} text={t('teams.empty_view_only')} />;
    return (
      <EmptyState icon={<FolderOpen className="size-7" aria-hidden />} title={t('files.empty_title')} text={t('files.empty_text')}>
        <div className="mt-5 flex flex-wrap items-center justify-center gap-2" data-testid="empty-actions">
          <UploadFilesButton parentId={source.id} />
          <button type="button" className="btn-primary" onClick={() => openCreateFolder(source.id, listing.abilities)}>
            <CreateFolderIcon className="size-4" aria-hidden />
            {t('actions.create_folder')}
          </button>
        </div>
        <p className="mt-4 text-sm text-muted pointer-coarse:hidden">{t('files.drop_hint')}</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ItemsView listing={listing} favourites={favourites} />
      {listing.loadingMore && (
        <div className="flex justify-center py-6">
          <Spinner size={24} label={t('app.loading')} />
        </div>
      )}
    </>
  );
}
