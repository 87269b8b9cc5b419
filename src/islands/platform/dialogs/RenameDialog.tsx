import { useState } from 'react';
import { ColorPicker } from '../../../components/pickers/ColorPicker.tsx';
import { EmojiPicker } from '../../../components/pickers/EmojiPicker.tsx';
import { emojiChar, renameItem, type Item } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { DialogFrame } from './DialogFrame.tsx';
import { NameForm } from './NameForm.tsx';

/** Rename; a folder also gets its emoji and colour here. Only what changed is sent. */
export function RenameDialog({ item }: { item: Item }) {
  const t = useT();
  const folder = item.type === 'folder';
  const [emoji, setEmoji] = useState<unknown>(item.attributes.emoji);
  const [color, setColor] = useState<string | null>(item.attributes.color);
  return (
    <DialogFrame title={t('actions.rename')} onOpenAutoFocus={(e) => e.preventDefault()}>
      <NameForm
        initial={item.attributes.name}
        submitLabel={t('actions.save')}
        adornment={folder ? <EmojiPicker value={emoji} onChange={setEmoji} /> : undefined}
        onSubmit={async (name) => {
          const patch: { name?: string; emoji?: unknown; color?: string | null } = {};
          if (name !== item.attributes.name) patch.name = name;
          if (folder && emojiChar(emoji) !== emojiChar(item.attributes.emoji)) patch.emoji = emoji ?? null;
          if (folder && color !== item.attributes.color) patch.color = color;
          if (Object.keys(patch).length) await renameItem(item.id, patch);
        }}
      >
        {folder && (
          <div className="mt-5">
            <ColorPicker value={color} onChange={setColor} />
          </div>
        )}
      </NameForm>
    </DialogFrame>
  );
}
