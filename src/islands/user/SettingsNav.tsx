import { useStore } from '@nanostores/react';
import { $config } from '../../stores/config.ts';
import { $router } from '../../stores/router.ts';
import { useT } from '../../stores/i18n.ts';

const TABS = [
  { route: 'profile', href: '/user/profile', key: 'locations.profile' },
  { route: 'password', href: '/user/settings/password', key: 'locations.password' },
  { route: 'storage', href: '/user/settings/storage', key: 'storage.title' },
  { route: 'tokens', href: '/user/settings/tokens', key: 'locations.tokens' },
  { route: 'billing', href: '/user/settings/billing', key: 'billing_pay.title' },
] as const;

/** Tabs between the user's settings pages. */
export function SettingsNav() {
  const page = useStore($router);
  const config = useStore($config);
  const t = useT();
  // Billing has a tab on paid instances (SPEC §4 subscription type fixed or metered), and wherever it is open.
  const tabs = TABS.filter((tab) => tab.route !== 'billing' || (config?.subscriptionType ?? 'none') !== 'none' || page?.route === 'billing');
  return (
    <nav aria-label={t('profile.settings_nav')} className="mb-6 flex gap-1 overflow-x-auto border-b border-border">
      {tabs.map((tab) => {
        const active = page?.route === tab.route;
        return (
          <a
            key={tab.route}
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
  );
}
