import { useState } from 'react';
import { EmojiPicker, type PickedEmoji } from '../../../components/pickers/EmojiPicker.tsx';
import { createFolder } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { DialogFrame } from './DialogFrame.tsx';
import { NameForm } from './NameForm.tsx';

/** The create-folder popup: its default name comes from the translation (SPEC §9), an emoji is optional. */
export function CreateFolderDialog({ parentId }: { parentId: string | null }) {
  const t = useT();
  const [emoji, setEmoji] = useState<PickedEmoji | null>(null);
  return (
    <DialogFrame title={t('popup_create_folder.title')} onOpenAutoFocus={(e) => e.preventDefault()}>
      <NameForm
        initial={t('popup_create_folder.folder_default_name')}
        submitLabel={t('actions.create')}
        adornment={<EmojiPicker value={emoji} onChange={setEmoji} />}
        onSubmit={async (name) => void (await createFolder(name, parentId, emoji))}
      />
    </DialogFrame>
  );
}
