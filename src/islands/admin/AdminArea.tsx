import { useStore } from '@nanostores/react';
import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import { useT } from '../../stores/i18n.ts';
import { $router } from '../../stores/router.ts';
import { lazyScreen } from '../app/screenLoader.ts';
import { ADMIN_NAV, ADMIN_SCREENS, isAdminRoute, type AdminScreenProps } from './screens.ts';

const lazyScreens = new Map<string, LazyExoticComponent<ComponentType<AdminScreenProps>>>();
function screenFor(route: keyof typeof ADMIN_SCREENS) {
  let screen = lazyScreens.get(route);
  if (!screen) lazyScreens.set(route, (screen = lazyScreen(ADMIN_SCREENS[route])));
  return screen;
}

/** Fetches every admin screen's script in idle time, so moving between them shows no spinner. */
export function prefetchAdminScreens(): void {
  for (const load of Object.values(ADMIN_SCREENS)) void load().catch(() => undefined);
}

/** The admin area: its tabs over the open admin screen, each screen loaded on first use. */
export default function AdminArea() {
  const page = useStore($router);
  const t = useT();
  if (!page || !isAdminRoute(page.route)) return null;
  const Screen = screenFor(page.route);
  return (
    <div>
      <nav aria-label={t('admin.nav')} className="mb-6 flex gap-1 overflow-x-auto border-b border-border">
        {ADMIN_NAV.map((tab) => {
          const active = (tab.routes as string[]).includes(page.route);
          return (
            <a
              key={tab.href}
              href={tab.href}
              aria-current={active ? 'page' : undefined}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors ${
                active ? 'border-brand text-brand' : 'border-transparent text-muted hover:text-text'
              }`}
            >
              {t(tab.key)}
            </a>
          );
        })}
      </nav>
      <Suspense fallback={<div className="flex justify-center py-20"><Spinner label={t('app.loading')} /></div>}>
        <Screen params={page.params as Record<string, string | undefined>} />
      </Suspense>
    </div>
  );
}
