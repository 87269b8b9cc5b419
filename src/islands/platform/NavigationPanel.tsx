import { useStore } from '@nanostores/react';
import { Clock, Star, Trash2, Link2, Users, UserCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { useRovingFocus } from '../../components/roving.ts';
import { addFavourites, removeFavourite, type Listing } from '../../stores/files.ts';
import { $tree } from '../../stores/tree.ts';
import { useT } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';
import { $user } from '../../stores/user.ts';
import { FolderGlyph, FolderTree } from './FolderTree.tsx';
import { StorageMeter } from './StorageMeter.tsx';
import { hasDragItems, readDragItems } from './dnd.ts';

/**
 * The file area's navigation, shown in the sidebar under the app's sections (whose Files entry is
 * the home folder): places, favourites (drop a folder here to add it), the folder tree and the
 * storage meter.
 */
export function NavigationPanel({ listing, sharedActive = false }: { listing: Listing | null; sharedActive?: boolean }) {
  const t = useT();
  const tree = useStore($tree);
  const user = useStore($user);
  const favourites = (user?.relationships.favourites.data ?? []) as { id: string; attributes: { name: string; color: string | null; emoji: unknown } }[];
  const favouriteIds = new Set(favourites.map((f) => f.id));
  const [favOver, setFavOver] = useState(false);
  const favouriteList = useRef<HTMLUListElement>(null);
  const favouriteKeys = useRovingFocus(favouriteList, 'a[href]', 'vertical');
  const placeList = useRef<HTMLUListElement>(null);
  const placeKeys = useRovingFocus(placeList, 'a[href]', 'vertical', '[aria-current="page"]');
  const source = listing?.source;
  const openId = source && source.kind === 'folder' ? source.id : undefined;

  return (
    <nav aria-label={t('files.navigation')} className="flex flex-col gap-6 text-sm">
      {/* Places, favourites and folders are one tab stop each: arrows move inside. */}
      <ul ref={placeList} {...placeKeys} aria-label={t('files.places')} className="flex flex-col gap-0.5">
        <Place href="/platform/recent-uploads" icon={<Clock className="size-[18px]" aria-hidden />} label={t('locations.recent')} active={source?.kind === 'latest'} />
        <Place href="/platform/team-folders" icon={<Users className="size-[18px]" aria-hidden />} label={t('teams.team_folders')} active={source?.kind === 'team'} />
        <Place href="/platform/shared-with-me" icon={<UserCheck className="size-[18px]" aria-hidden />} label={t('teams.shared_with_me')} active={source?.kind === 'shared'} />
        <Place href="/platform/my-shared-items" icon={<Link2 className="size-[18px]" aria-hidden />} label={t('sharing.my_shared_items')} active={sharedActive} />
        <Place href="/platform/trash" icon={<Trash2 className="size-[18px]" aria-hidden />} label={t('locations.trash')} active={source?.kind === 'trash'} />
      </ul>

      <section
        aria-labelledby="favourites-heading"
        data-testid="favourites"
        className={`rounded-control p-1 transition-colors ${favOver ? 'bg-brand-soft ring-2 ring-brand' : ''}`}
        onDragOver={(e) => {
          if (!hasDragItems(e)) return;
          e.preventDefault();
          setFavOver(true);
        }}
        onDragLeave={() => setFavOver(false)}
        onDrop={(e) => {
          setFavOver(false);
          const folders = readDragItems(e).filter((i) => i.type === 'folder');
          e.preventDefault();
          if (folders.length) void addFavourites(folders.map((f) => f.id)).then(() => toast('success', t('actions.favourite_added')));
        }}
      >
        <h2 id="favourites-heading" className="mb-1 px-2 text-xs font-semibold tracking-wide text-muted uppercase">
          {t('files.favourites')}
        </h2>
        {favourites.length === 0 ? (
          <p className="px-2 py-1.5 text-xs text-muted">{t('files.favourites_empty')}</p>
        ) : (
          <ul ref={favouriteList} {...favouriteKeys} className="flex flex-col gap-0.5">
            {favourites.map((f) => (
              <li key={f.id} className="group flex items-center">
                <a
                  href={`/platform/files/${f.id}`}
                  // The favourites are one tab stop (Up and Down move between them); Delete on one
                  // does what its star button does.
                  aria-keyshortcuts="Delete"
                  onKeyDown={(e) => {
                    if (e.key !== 'Delete') return;
                    e.preventDefault();
                    const next = (e.currentTarget.closest('li')?.nextElementSibling ?? e.currentTarget.closest('li')?.previousElementSibling)?.querySelector('a');
                    void removeFavourite(f.id).then(() => next?.focus());
                  }}
                  className={`flex min-w-0 flex-1 items-center gap-2 rounded-lg px-2 py-1.5 ${openId === f.id ? 'bg-brand-soft text-brand' : 'hover:bg-surface-2'}`}
                >
                  <FolderGlyph node={f.attributes} />
                  <span className="truncate">{f.attributes.name}</span>
                </a>
                <button
                  type="button"
                  tabIndex={-1}
                  className="rounded-md p-1 text-warning opacity-70 group-hover:opacity-100"
                  aria-label={t('actions.remove_favourite_named', { name: f.attributes.name })}
                  onClick={() => void removeFavourite(f.id)}
                >
                  <Star className="size-3.5" fill="currentColor" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="tree-heading">
        <h2 id="tree-heading" className="mb-1 px-2 text-xs font-semibold tracking-wide text-muted uppercase">
          {t('files.folders')}
        </h2>
        {tree === null ? (
          <div className="flex flex-col gap-2 px-2 py-1" aria-hidden>
            {[70, 55, 80].map((w) => (
              <span key={w} className="h-3 animate-pulse rounded bg-surface-2" style={{ width: `${w}%` }} />
            ))}
          </div>
        ) : tree.length === 0 ? (
          <p className="px-2 py-1.5 text-xs text-muted">{t('files.no_folders')}</p>
        ) : (
          <FolderTree tree={tree} openId={openId ?? undefined} favourites={favouriteIds} labelledBy="tree-heading" />
        )}
      </section>

      {/* Pinned to the bottom of the sidebar's scrolling part: however many folders there are, the usage stays in view. */}
      <div className="sticky bottom-0 z-10 -mx-4 -mb-6 border-t border-border bg-surface px-4 pt-3 pb-3" data-testid="sidebar-storage">
        <StorageMeter layout="panel" />
      </div>
    </nav>
  );
}

function Place({ href, icon, label, active }: { href: string; icon: React.ReactNode; label: string; active: boolean | undefined }) {
  return (
    <li>
      <a
        href={href}
        aria-current={active ? 'page' : undefined}
        className={`flex items-center gap-2.5 rounded-lg px-2 py-2 font-medium ${active ? 'bg-brand-soft text-brand' : 'text-text hover:bg-surface-2'}`}
      >
        {icon}
        {label}
      </a>
    </li>
  );
}
