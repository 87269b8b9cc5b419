import type { AppContext } from '../context.ts';
import { itemData } from '../files/presenter.ts';
import type { ItemRow } from '../files/queries.ts';
import { scopedItemData } from '../sharing/presenter.ts';
import type { UploadRequestRow } from './queries.ts';
import { requestLink, statusOf } from './service.ts';

/** The upload request resource (SPEC §3: status; relationship folder). */
export function uploadRequestData(ctx: AppContext, request: UploadRequestRow, folder: ItemRow, view: 'owner' | 'holder', ownerName?: string) {
  return {
    id: request.id,
    type: 'upload-requests',
    attributes: {
      token: request.token,
      status: statusOf(ctx, request),
      name: request.name,
      notes: request.notes,
      ...(view === 'owner' ? { email: request.email } : { owner_name: ownerName ?? null }),
      expires_at: request.expires_at,
      link: requestLink(ctx, request),
      created_at: request.created_at,
    },
    relationships: { folder: { data: view === 'owner' ? itemData(folder) : scopedItemData(folder, request.token, folder.id, 'request') } },
  };
}
