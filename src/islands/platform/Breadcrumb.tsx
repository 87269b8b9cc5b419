import { useStore } from '@nanostores/react';
import { ChevronRight } from 'lucide-react';
import { useState } from 'react';
import type { Listing, TreeNode } from '../../stores/files.ts';
import { $tree, pathTo } from '../../stores/tree.ts';
import { useT } from '../../stores/i18n.ts';
import { moveWithFeedback } from './actions.ts';
import { dropTarget } from './dnd.ts';

interface Crumb {
  id: string | null;
  name: string;
  href: string;
}

/** Where you are: each part is a link and, in Files, a drop target to move items up the tree. */
export function Breadcrumb({ listing }: { listing: Listing }) {
  const tree = useStore($tree) ?? [];
  const t = useT();
  const { source } = listing;
  let crumbs: Crumb[];
  if (source.kind === 'latest') crumbs = [{ id: null, name: t('locations.recent'), href: '/platform/recent-uploads' }];
  else if (source.kind === 'trash') {
    crumbs = [{ id: null, name: t('locations.trash'), href: '/platform/trash' }];
    if (source.id && listing.root) crumbs.push({ id: source.id, name: listing.root.attributes.name, href: `/platform/trash/${source.id}` });
  } else if (source.kind === 'team' || source.kind === 'shared') {
    crumbs = teamCrumbs(listing, tree, source.kind === 'team' ? t('teams.team_folders') : t('teams.shared_with_me'));
  } else {
    crumbs = [{ id: null, name: t('locations.home'), href: '/platform/files' }];
    if (source.id) {
      const trail = pathTo(tree, source.id);
      if (trail.length) for (const node of trail) crumbs.push({ id: node.id, name: node.name, href: `/platform/files/${node.id}` });
      else if (listing.root) crumbs.push({ id: source.id, name: listing.root.attributes.name, href: `/platform/files/${source.id}` });
    }
  }
  return (
    <nav aria-label={t('files.breadcrumb')} className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1 text-sm">
        {crumbs.map((crumb, i) => (
          <li key={crumb.href} className={`flex min-w-0 items-center gap-1 ${i < crumbs.length - 2 ? 'hidden sm:flex' : ''}`}>
            {i > 0 && <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden />}
            <CrumbLink crumb={crumb} current={i === crumbs.length - 1} droppable={source.kind === 'folder'} />
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * In a team folder: the place, then from the team folder down to the open folder. The owner's
 * folder tree knows the way; a member sees the team folder and the open folder.
 */
function teamCrumbs(listing: Listing, tree: TreeNode[], placeName: string): Crumb[] {
  const { source, team, root } = listing;
  const base = source.kind === 'team' ? '/platform/team-folders' : '/platform/shared-with-me';
  const crumbs: Crumb[] = [{ id: null, name: placeName, href: base }];
  if (source.kind === 'latest' || !source.id) return crumbs;
  const trail = pathTo(tree, source.id);
  const from = team ? trail.findIndex((n) => n.id === team.folder_id) : -1;
  if (from !== -1) {
    for (const node of trail.slice(from)) crumbs.push({ id: node.id, name: node.name, href: `${base}/${node.id}` });
    return crumbs;
  }
  if (team && team.folder_id !== source.id && team.name) crumbs.push({ id: team.folder_id, name: team.name, href: `${base}/${team.folder_id}` });
  if (root) crumbs.push({ id: source.id, name: root.attributes.name, href: `${base}/${source.id}` });
  return crumbs;
}

function CrumbLink({ crumb, current, droppable }: { crumb: Crumb; current: boolean; droppable: boolean }) {
  const [over, setOver] = useState(false);
  const drop = droppable && !current ? dropTarget(crumb.id, (items, to) => void moveWithFeedback(items, to), setOver) : {};
  if (current) {
    return (
      <h1 className="truncate text-xl font-bold tracking-tight sm:text-2xl" aria-current="page">
        {crumb.name}
      </h1>
    );
  }
  return (
    <a href={crumb.href} {...drop} className={`truncate rounded-md px-1.5 py-1 text-muted hover:text-text sm:text-base ${over ? 'bg-brand-soft text-brand ring-2 ring-brand' : ''}`}>
      {crumb.name}
    </a>
  );
}
