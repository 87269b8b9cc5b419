import { useStore } from '@nanostores/react';
import { FileViewer } from '../FileViewer.tsx';
import { closeDialog, openDialog, restoreFocus } from '../../../stores/dialogs.ts';
import { may } from '../../../stores/abilities.ts';
import { $listing, type Item } from '../../../stores/files.ts';
import { downloadUrl } from '../actions.ts';

/** The file area's viewer: previous/next through the open folder's files; closing returns to the list. Download where the item allows it. */
export function PreviewDialog({ item }: { item: Item }) {
  const listing = useStore($listing);
  const files = (listing?.items ?? []).filter((i) => i.type === 'file');
  return (
    <FileViewer
      item={item}
      files={files}
      download={may(item, 'download') ? downloadUrl([item]) : null}
      onShow={(next) => openDialog({ kind: 'preview', item: next })}
      onClose={closeDialog}
      onClosed={restoreFocus}
    />
  );
}
