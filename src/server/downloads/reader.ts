import type { IncomingMessage } from 'node:http';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { dataUser } from '../http/data-auth.ts';
import { openShareForData } from '../sharing/data-plane.ts';

/**
 * The principal of a download route (file, thumbnail, zip): a share link's holder when the path
 * carries its token (group `tokenGroup` of `path`), acting as the owner inside the share; else the
 * signed-in user. Refuses by throwing (data-route.ts answers it).
 */
export function readerOf(path: RegExp, tokenGroup: number) {
  return async (ctx: AppContext, req: IncomingMessage, pathname: string): Promise<User> => {
    const token = path.exec(pathname)?.[tokenGroup];
    return token !== undefined ? (await openShareForData(ctx, req, token, 'read')).actor : (await dataUser(ctx, req)).user;
  };
}
