import type { AppRoute } from '../islands/app/routes.ts';

interface ModulePreloads {
  /** The app island's scripts: App and React's client renderer with all they import. */
  shell: string[];
  /** Each lazily loaded screen (by its source, `src/islands/platform/FilesScreen.tsx`): its chunks beyond the shell. */
  screens: Record<string, string[]>;
}

// Written in by the build (integrations/module-preloads.mjs) once the client chunks' names are known,
// as Astro writes its own manifest in; in `astro dev` it stays the placeholder and nothing is preloaded.
const BUILT: string = '__CLOUD_DRIVE_MODULE_PRELOADS__';

function parse(): ModulePreloads {
  try {
    return JSON.parse(BUILT) as ModulePreloads;
  } catch {
    return { shell: [], screens: {} };
  }
}
const PRELOADS = parse();

const platform = (name: string) => [`src/islands/platform/${name}.tsx`, 'src/islands/platform/FilesNavigation.tsx'];
const user = (name: string) => [`src/islands/user/${name}.tsx`];
/** The screens each route renders (App.tsx's `screens` table, and the file area's navigation). */
const ROUTE_SCREENS: { [R in AppRoute]?: string[] } = {
  files: platform('FilesScreen'),
  recent: platform('RecentScreen'),
  sharedItems: platform('SharedItemsScreen'),
  trash: platform('TrashScreen'),
  teamFolders: platform('TeamFoldersScreen'),
  sharedWithMe: platform('SharedWithMeScreen'),
  profile: user('ProfileScreen'),
  password: user('PasswordScreen'),
  storage: user('StorageScreen'),
  tokens: user('TokensScreen'),
};

/** The scripts a visit to `route` needs before it shows anything, shell first, each once. */
export function modulePreloadsFor(route: AppRoute | null): string[] {
  const screens = (route && ROUTE_SCREENS[route]) ?? (route?.startsWith('admin') ? ['src/islands/admin/AdminArea.tsx'] : []);
  return [...new Set([...PRELOADS.shell, ...screens.flatMap((name) => PRELOADS.screens[name] ?? [])])];
}
