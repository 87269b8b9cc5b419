import type { IncomingMessage } from 'node:http';
import { requireSignedIn, shareHolder, viewOfNode } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Principal } from '../auth/principal.ts';

/**
 * The principal of a download route (file, thumbnail, zip), from auth/principal.ts:
 * a share link's holder when the path carries its token (group `tokenGroup` of `path`), acting
 * as the owner inside the share; else the signed-in user. Refuses by throwing (data-route.ts answers it).
 */
export function readerOf(path: RegExp, tokenGroup: number) {
  return async (ctx: AppContext, req: IncomingMessage, pathname: string): Promise<Principal> => {
    const token = path.exec(pathname)?.[tokenGroup];
    const view = viewOfNode(req, pathname);
    return token !== undefined ? shareHolder(ctx, view, token, 'read') : requireSignedIn(ctx, view);
  };
}
