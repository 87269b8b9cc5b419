import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { AppShell } from '../../components/shell/AppShell.tsx';
import { FullPageSpinner, Spinner } from '../../components/Spinner.tsx';
import { $config } from '../../stores/config.ts';
import { $translations, loadTranslations, t } from '../../stores/i18n.ts';
import { $router, redirectPage } from '../../stores/router.ts';
import { watchSession } from '../../stores/session.ts';
import { closeTopmost } from '../../stores/ui.ts';
import { $listing, prefetchListing, whenListingSettled } from '../../stores/files.ts';
import { openingSource } from '../../stores/listing-url.ts';
import { startLive } from '../../stores/live.ts';
import { preloadUploaders } from '../../stores/uploads.ts';
import { $user, loadUser } from '../../stores/user.ts';
import { lazyScreen, preloadScreen } from './screenLoader.ts';
import { ScreenErrorBoundary } from './ScreenErrorBoundary.tsx';

// Each screen is its own chunk; all are fetched in idle time after the first paint so moving
// between them later shows no spinner.
const screens = {
  files: () => import('../platform/FilesScreen.tsx'),
  recent: () => import('../platform/RecentScreen.tsx'),
  sharedItems: () => import('../platform/SharedItemsScreen.tsx'),
  trash: () => import('../platform/TrashScreen.tsx'),
  teamFolders: () => import('../platform/TeamFoldersScreen.tsx'),
  sharedWithMe: () => import('../platform/SharedWithMeScreen.tsx'),
  profile: () => import('../user/ProfileScreen.tsx'),
  password: () => import('../user/PasswordScreen.tsx'),
  storage: () => import('../user/StorageScreen.tsx'),
  tokens: () => import('../user/TokensScreen.tsx'),
  billing: () => import('../user/billing/BillingScreen.tsx'),
  admin: () => import('../admin/AdminArea.tsx'),
};
const FilesScreen = lazyScreen(screens.files);
const RecentScreen = lazyScreen(screens.recent);
const SharedItemsScreen = lazyScreen(screens.sharedItems);
const TrashScreen = lazyScreen(screens.trash);
const TeamFoldersScreen = lazyScreen(screens.teamFolders);
const SharedWithMeScreen = lazyScreen(screens.sharedWithMe);
const ProfileScreen = lazyScreen(screens.profile);
const PasswordScreen = lazyScreen(screens.password);
const StorageScreen = lazyScreen(screens.storage);
const TokensScreen = lazyScreen(screens.tokens);
const BillingScreen = lazyScreen(screens.billing);
const AdminArea = lazyScreen(screens.admin);
// The file area's navigation joins the sidebar on its screens; it shares their chunks. Should its
// script not arrive, the sidebar goes without it (the screen itself says what failed).
const FilesNavigation = lazy<ComponentType>(() => import('../platform/FilesNavigation.tsx').catch(() => ({ default: () => null })));
const FILE_AREA_ROUTES = new Set(['files', 'recent', 'sharedItems', 'trash', 'teamFolders', 'sharedWithMe']);

function prefetchScreens(admin: boolean): void {
  const run = () => {
    preloadUploaders();
    for (const [name, load] of Object.entries(screens)) if (admin || name !== 'admin') void load().catch(() => undefined);
    if (admin) void screens.admin().then((area) => area.prefetchAdminScreens()).catch(() => undefined);
  };
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(run) : setTimeout(run, 200));
  // Not before the opening screen has its list: the other scripts would compete with drawing it.
  void opened.finally(() => {
    const route = $router.get()?.route ?? '';
    if (LISTING_ROUTES.has(route) && !$listing.get()) {
      // The screen opens its listing as it mounts: wait for that one.
      const stop = $listing.listen(() => {
        stop();
        whenListingSettled(idle);
      });
    } else whenListingSettled(idle);
  });
}

const LISTING_ROUTES = new Set(['files', 'trash', 'recent', 'teamFolders', 'sharedWithMe']);
let opened: Promise<unknown> = Promise.resolve();
/** Whether the opening screen's script is in (or failed): until then the app draws its spinner, not a suspended screen. */
let openingLoaded = false;

/**
 * The open screen's script and the list it will show are asked for as soon as this module runs,
 * while React draws the shell, not after its first render.
 */
function prefetchOpening(): void {
  const opening = $router.get();
  const openingScreen = opening?.route.startsWith('admin') ? 'admin' : opening?.route;
  if (openingScreen && openingScreen in screens) opened = preloadScreen(screens[openingScreen as keyof typeof screens] as () => Promise<{ default: ComponentType<object> }>).catch(() => undefined);
  void opened.finally(() => {
    openingLoaded = true;
  });
  const source = openingSource(opening?.route, opening?.params ?? {});
  if (source) prefetchListing(source);
}
if (typeof window !== 'undefined') prefetchOpening();

/** The signed-in app: platform, user settings and admin, routed in history mode inside one shell. */
export default function App() {
  const translations = useStore($translations);
  const user = useStore($user);
  const page = useStore($router);
  const [failed, setFailed] = useState<string | null>(null);
  const [opening, setOpening] = useState(!openingLoaded);
  useEffect(() => {
    if (opening) void opened.finally(() => setOpening(false));
  }, [opening]);

  useEffect(() => {
    // The document normally carries both (src/layouts/AppLayout.astro); fetched only when it does not.
    if (!$translations.get()) void loadTranslations($config.get()?.locale ?? 'en');
    const carried = $user.get();
    if (carried) prefetchScreens(carried.attributes.role === 'admin');
    else {
      loadUser()
        .then((loaded) => prefetchScreens(loaded.attributes.role === 'admin'))
        .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) closeTopmost();
    };
    document.addEventListener('keydown', onKey);
    const stopWatching = watchSession();
    return () => {
      document.removeEventListener('keydown', onKey);
      stopWatching();
    };
  }, []);

  // The live event stream opens once there is a signed-in user, and closes with the page.
  const signedIn = user !== null;
  useEffect(() => (signedIn ? startLive() : undefined), [signedIn]);

  // History-mode navigation scrolls to the top, as a page load would. (A block body: newer
  // browsers return a Promise from scrollTo, which React would take for a cleanup function.)
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [page?.path]);

  // The server guards /admin on load; this covers in-app navigation by a non-admin.
  useEffect(() => {
    if (user && page?.route.startsWith('admin') && user.attributes.role !== 'admin') redirectPage($router, 'files');
  }, [user, page?.route]);

  if (!translations) return <FullPageSpinner label="Loading…" />;
  if (failed) {
    return (
      <div className="flex min-h-dvh items-center justify-center p-6">
        <div role="alert" className="notice-danger max-w-md">
          {t('popup_error.message')} ({failed})
        </div>
      </div>
    );
  }
  if (!user || opening) return <FullPageSpinner label={t('app.loading')} />;

  return (
    <AppShell
      wide={!!page && FILE_AREA_ROUTES.has(page.route)}
      sidebar={
        page && FILE_AREA_ROUTES.has(page.route) && (
          <Suspense fallback={null}>
            <FilesNavigation />
          </Suspense>
        )
      }
    >
      <ScreenErrorBoundary resetKey={page?.route ?? ''}>
      <Suspense fallback={<div className="flex justify-center py-20"><Spinner label={t('app.loading')} /></div>}>
        {page?.route === 'files' && <FilesScreen folderId={page.params.id || null} />}
        {page?.route === 'recent' && <RecentScreen />}
        {page?.route === 'sharedItems' && <SharedItemsScreen />}
        {page?.route === 'trash' && <TrashScreen folderId={page.params.id || null} />}
        {page?.route === 'teamFolders' && <TeamFoldersScreen folderId={page.params.id || null} />}
        {page?.route === 'sharedWithMe' && <SharedWithMeScreen folderId={page.params.id || null} />}
        {page?.route === 'profile' && <ProfileScreen />}
        {page?.route === 'password' && <PasswordScreen />}
        {page?.route === 'storage' && <StorageScreen />}
        {page?.route === 'tokens' && <TokensScreen />}
        {page?.route === 'billing' && <BillingScreen />}
        {page?.route.startsWith('admin') && user.attributes.role === 'admin' && <AdminArea />}
      </Suspense>
      </ScreenErrorBoundary>
    </AppShell>
  );
}
