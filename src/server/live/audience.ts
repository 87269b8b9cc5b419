import type { AppContext } from '../context.ts';

/**
 * Who hears that items of `ownerId` changed in `folderIds` (null: the owner's home): the users whose
 * open listings may show them. Today only the owner; team folders add their members here.
 */
export async function audienceFor(_ctx: AppContext, ownerId: string, _folderIds: (string | null)[]): Promise<string[]> {
  return [ownerId];
}
