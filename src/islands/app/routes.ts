import { PAYMENTS_TABS } from '../admin/payments/tabs.ts';
import { SETTINGS_TABS } from '../admin/settings/tabs.ts';

/**
 * The signed-in app's routes (SPEC §2), shared by the client router and the Astro pages that mount
 * the app, so an unknown path gets the real 404 from the server instead of an empty shell.
 */
export const APP_ROUTES = {
  files: '/platform/files/:id?',
  recent: '/platform/recent-uploads',
  sharedItems: '/platform/my-shared-items',
  trash: '/platform/trash/:id?',
  teamFolders: '/platform/team-folders/:id?',
  sharedWithMe: '/platform/shared-with-me/:id?',
  profile: '/user/profile',
  password: '/user/settings/password',
  storage: '/user/settings/storage',
  tokens: '/user/settings/tokens',
  billing: '/user/settings/billing',
  adminDashboard: '/admin/dashboard',
  adminUsers: '/admin/users',
  // Before adminUser, so /admin/user/create is not read as the user "create".
  adminUserCreate: '/admin/user/create',
  /** tab: details (also no tab), storage, subscription, password, delete. */
  adminUser: '/admin/user/:id/:tab?',
  adminPages: '/admin/pages',
  /** `new` opens the editor for a page not yet created (no page may take that slug). */
  adminPage: '/admin/pages/:slug',
  adminSettings: '/admin/settings/:tab?',
  adminLanguage: '/admin/language/:code?',
  adminPlans: '/admin/plans',
  // Before adminPlan, so /admin/plan/create/fixed is not read as the plan "create".
  adminPlanCreate: '/admin/plan/create/:type',
  /** type: fixed or metered; tab: subscribers (also no tab), settings, delete. */
  adminPlan: '/admin/plan/:id/:type/:tab?',
  adminSubscriptions: '/admin/subscriptions',
  /** tab: billings (also no tab) or payments. */
  adminPayments: '/admin/payments/:tab?',
  adminInvoices: '/admin/invoices',
} as const;

export type AppRoute = keyof typeof APP_ROUTES;

/**
 * The values a route's parameter may take where not just any segment names a page: another value
 * is not an app path (the server answers the real 404).
 */
const PARAM_VALUES: { [R in AppRoute]?: Record<string, readonly string[]> } = {
  adminSettings: { tab: SETTINGS_TABS },
  adminPlanCreate: { type: ['fixed', 'metered'] },
  adminPlan: { type: ['fixed', 'metered'], tab: ['subscribers', 'settings', 'delete'] },
  adminPayments: { tab: PAYMENTS_TABS },
};

function toRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .filter(Boolean)
    .map((part) => {
      if (!part.startsWith(':')) return `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      const name = part.slice(1).replace(/\?$/, '');
      return part.endsWith('?') ? `(?:/(?<${name}>[^/]+))?` : `/(?<${name}>[^/]+)`;
    })
    .join('');
  return new RegExp(`^${body}/?$`);
}

const MATCHERS = (Object.entries(APP_ROUTES) as [AppRoute, string][]).map(([route, pattern]) => ({ route, re: toRegExp(pattern), values: PARAM_VALUES[route] }));

/** The route a path names with its parameters (decoded), or null when it is not an app path. */
export function appRouteMatch(pathname: string): { route: AppRoute; params: Record<string, string | undefined> } | null {
  for (const { route, re, values } of MATCHERS) {
    const match = re.exec(pathname);
    if (!match) continue;
    const groups = match.groups ?? {};
    if (!Object.entries(values ?? {}).every(([name, allowed]) => groups[name] === undefined || allowed.includes(groups[name]))) continue;
    const params: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(groups)) params[name] = value === undefined ? undefined : decodeSegment(value);
    return { route, params };
  }
  return null;
}

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The route a path names, or null when it is not an app path. */
export function appRouteOf(pathname: string): AppRoute | null {
  return appRouteMatch(pathname)?.route ?? null;
}

export function isAppPath(pathname: string): boolean {
  return appRouteOf(pathname) !== null;
}
