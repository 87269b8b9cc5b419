import { useStore } from '@nanostores/react';
import { $dialog } from '../../../stores/dialogs.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { CreateFolderDialog } from './CreateFolderDialog.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import { MoveDialog } from './MoveDialog.tsx';
import { PreviewDialog } from './PreviewDialog.tsx';
import { RenameDialog } from './RenameDialog.tsx';
import { RequestUploadDialog } from './RequestUploadDialog.tsx';
import { ShareDialog } from './ShareDialog.tsx';

/** Renders the one open platform dialog. */
export function Dialogs() {
  const dialog = useStore($dialog);
  if (!dialog) return null;
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
    case 'confirm':
      return <ConfirmDialog {...dialog} />;
  }
}
