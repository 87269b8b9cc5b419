import { Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { useT } from '../../../stores/i18n.ts';
import { lazyScreen } from '../../app/screenLoader.ts';
import type { AdminScreenProps } from '../screens.ts';
import { isSettingsTab, SETTINGS_TABS, type SettingsTab } from './tabs.ts';

/** Each tab is its own chunk; all are fetched once the screen opens, so switching tabs shows no spinner. */
const TAB_MODULES: Record<SettingsTab, () => Promise<{ default: ComponentType }>> = {
  appearance: () => import('./AppearanceTab.tsx'),
  index: () => import('./HomepageTab.tsx'),
  environment: () => import('./EmailTab.tsx'),
  others: () => import('./OthersTab.tsx'),
  'sign-in': () => import('./SignInTab.tsx'),
  adsense: () => import('./AdsenseTab.tsx'),
  server: () => import('./ServerTab.tsx'),
};
const TABS = Object.fromEntries(SETTINGS_TABS.map((tab) => [tab, lazyScreen(TAB_MODULES[tab])])) as Record<SettingsTab, LazyExoticComponent<ComponentType>>;

const LABEL_KEYS: Record<SettingsTab, string> = {
  appearance: 'admin_settings.tab_appearance',
  index: 'admin_settings.tab_index',
  environment: 'admin_settings.tab_environment',
  others: 'admin_settings.tab_others',
  'sign-in': 'admin_settings.tab_sign_in',
  adsense: 'admin_settings.tab_adsense',
  server: 'admin_settings.tab_server',
};

/** /admin/settings/:tab?: the instance's settings, one tab per group; no tab opens the first. */
export default function SettingsScreen({ params }: AdminScreenProps) {
  const t = useT();
  const tab = params.tab || SETTINGS_TABS[0];
  const known = isSettingsTab(tab);
  useTitle(known ? `${t(LABEL_KEYS[tab])} · ${t('admin_settings.title')}` : t('admin_settings.title'));

  useEffect(() => {
    for (const load of Object.values(TAB_MODULES)) void load().catch(() => undefined);
  }, []);

  // A tab the app does not know, reached without a page load (a typed link): load it, so the
  // server answers with the real 404 page, as it does for any unknown path.
  useEffect(() => {
    if (!known) location.replace(location.href);
  }, [known]);
  if (!known) return null;

  const Tab = TABS[tab];
  return (
    <div>
      <PageHeader title={t('admin_settings.title')} subtitle={t('admin_settings.subtitle')} />
      <div className="flex flex-col gap-6 lg:flex-row lg:items-start lg:gap-8">
        <nav aria-label={t('admin_settings.tabs')} className="lg:sticky lg:top-6 lg:w-48 lg:shrink-0">
          <ul className="flex flex-wrap gap-1 lg:flex-col">
            {SETTINGS_TABS.map((name) => {
              const active = name === tab;
              return (
                <li key={name} className="shrink-0">
                  <a
                    href={`/admin/settings/${name}`}
                    aria-current={active ? 'page' : undefined}
                    className={`block rounded-control px-3 py-2 text-sm font-semibold whitespace-nowrap transition-colors ${
                      active ? 'bg-brand-soft text-brand' : 'text-muted hover:bg-surface-2 hover:text-text'
                    }`}
                  >
                    {t(LABEL_KEYS[name])}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          <Suspense fallback={<div className="flex justify-center py-16"><Spinner label={t('app.loading')} /></div>}>
            <Tab key={tab} />
          </Suspense>
        </div>
      </div>
    </div>
  );
}
