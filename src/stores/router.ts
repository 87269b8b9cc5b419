import { createRouter, openPage, redirectPage } from '@nanostores/router';
import { APP_ROUTES } from '../islands/app/routes.ts';

/**
 * One history-mode router for the signed-in app (platform, user settings, admin). Moving between
 * its pages never reloads the document; links to other paths are normal page loads.
 */
export const $router = createRouter(APP_ROUTES);

export type Route = NonNullable<ReturnType<typeof $router.get>>['route'];

export { openPage, redirectPage };

/** The app area a path belongs to, for the sidebar's active entry. */
export function areaOf(path: string): 'platform' | 'user' | 'admin' | null {
  const first = path.split('/')[1];
  return first === 'platform' || first === 'user' || first === 'admin' ? first : null;
}
