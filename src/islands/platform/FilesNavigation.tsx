import { useStore } from '@nanostores/react';
import { $listing, sameSource, type Source } from '../../stores/files.ts';
import { $router } from '../../stores/router.ts';
import { NavigationPanel } from './NavigationPanel.tsx';

/** The open file-area screen's source, from the route (null off the file area's lists). */
function routeSource(page: ReturnType<typeof $router.get>): Source | null {
  if (page?.route === 'files') return { kind: 'folder', id: page.params.id || null };
  if (page?.route === 'trash') return { kind: 'trash', id: page.params.id || null };
  if (page?.route === 'recent') return { kind: 'latest' };
  if (page?.route === 'teamFolders') return { kind: 'team', id: page.params.id || null };
  if (page?.route === 'sharedWithMe') return { kind: 'shared', id: page.params.id || null };
  return null;
}

/**
 * The file area's navigation as the sidebar shows it under the app's sections (its own chunk, loaded
 * with the file area's screens): the navigation panel, told which list is open.
 */
export default function FilesNavigation() {
  const page = useStore($router);
  const listing = useStore($listing);
  const source = routeSource(page);
  const current = source && listing && sameSource(listing.source, source) ? listing : null;
  return <NavigationPanel listing={current} sharedActive={page?.route === 'sharedItems'} />;
}
