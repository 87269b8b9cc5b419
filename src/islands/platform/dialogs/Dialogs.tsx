import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { $dialog } from '../../../stores/dialogs.ts';
import { whenListingSettled } from '../../../stores/files.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

// The dialogs (with the viewer, the emoji picker, the QR code) are not needed to draw the list:
// each is its own chunk, fetched in idle time once the list is drawn, or when first opened.
const loaders = {
  createFolder: () => import('./CreateFolderDialog.tsx'),
  rename: () => import('./RenameDialog.tsx'),
  move: () => import('./MoveDialog.tsx'),
  preview: () => import('./PreviewDialog.tsx'),
  import: () => import('./ImportDialog.tsx'),
  share: () => import('./ShareDialog.tsx'),
  requestUpload: () => import('./RequestUploadDialog.tsx'),
  teamFolder: () => import('../teams/TeamFolderDialog.tsx'),
  teamMembers: () => import('../teams/TeamMembersDialog.tsx'),
};
const CreateFolderDialog = lazy(() => loaders.createFolder().then((m) => ({ default: m.CreateFolderDialog })));
const RenameDialog = lazy(() => loaders.rename().then((m) => ({ default: m.RenameDialog })));
const MoveDialog = lazy(() => loaders.move().then((m) => ({ default: m.MoveDialog })));
const PreviewDialog = lazy(() => loaders.preview().then((m) => ({ default: m.PreviewDialog })));
const ImportDialog = lazy(() => loaders.import().then((m) => ({ default: m.ImportDialog })));
const ShareDialog = lazy(() => loaders.share().then((m) => ({ default: m.ShareDialog })));
const CreateTeamDialog = lazy(() => loaders.teamFolder().then((m) => ({ default: m.CreateTeamDialog })));
const ConvertTeamDialog = lazy(() => loaders.teamFolder().then((m) => ({ default: m.ConvertTeamDialog })));
const TeamMembersDialog = lazy(() => loaders.teamMembers().then((m) => ({ default: m.TeamMembersDialog })));
const RequestUploadDialog = lazy(() => loaders.requestUpload().then((m) => ({ default: m.RequestUploadDialog })));

let prefetched = false;
function prefetchDialogs(): void {
  if (prefetched) return;
  prefetched = true;
  const run = () => {
    for (const load of Object.values(loaders)) void load().catch(() => undefined);
  };
  whenListingSettled(() => ('requestIdleCallback' in window ? requestIdleCallback(run) : setTimeout(run, 200)));
}

/** Renders the one open platform dialog. */
export function Dialogs() {
  const dialog = useStore($dialog);
  useEffect(prefetchDialogs, []);
  if (!dialog) return null;
  return <Suspense fallback={null}>{dialogFor(dialog)}</Suspense>;
}

function dialogFor(dialog: NonNullable<ReturnType<typeof $dialog.get>>) {
  switch (dialog.kind) {
    case 'create-folder':
      return <CreateFolderDialog parentId={dialog.parentId} />;
    case 'rename':
      return <RenameDialog item={dialog.item} />;
    case 'move':
      return <MoveDialog items={dialog.items} />;
    case 'preview':
      return <PreviewDialog item={dialog.item} />;
    case 'import':
      return <ImportDialog parentId={dialog.parentId} />;
    case 'share':
      return <ShareDialog item={dialog.item} />;
    case 'request-upload':
      return <RequestUploadDialog folder={dialog.folder} />;
    case 'create-team':
      return <CreateTeamDialog parentId={dialog.parentId} />;
    case 'convert-team':
      return <ConvertTeamDialog folder={dialog.folder} />;
    case 'team-members':
      return <TeamMembersDialog />;
    case 'confirm':
      return <ConfirmDialog {...dialog} />;
  }
}
