/**
 * The signed-in app's routes (SPEC §2), shared by the client router and the Astro pages that mount
 * the app, so an unknown path gets the real 404 from the server instead of an empty shell.
 */
export const APP_ROUTES = {
  files: '/platform/files/:id?',
  recent: '/platform/recent-uploads',
  sharedItems: '/platform/my-shared-items',
  trash: '/platform/trash/:id?',
  profile: '/user/profile',
  password: '/user/settings/password',
  storage: '/user/settings/storage',
  tokens: '/user/settings/tokens',
  adminDashboard: '/admin/dashboard',
  adminUsers: '/admin/users',
  // Before adminUser, so /admin/user/create is not read as the user "create".
  adminUserCreate: '/admin/user/create',
  /** tab: details (also no tab), storage, subscription, password, delete. */
  adminUser: '/admin/user/:id/:tab?',
} as const;

export type AppRoute = keyof typeof APP_ROUTES;

function toRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? (part.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+') : `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .join('');
  return new RegExp(`^${body}/?$`);
}

const MATCHERS = Object.values(APP_ROUTES).map(toRegExp);

export function isAppPath(pathname: string): boolean {
  return MATCHERS.some((re) => re.test(pathname));
}
