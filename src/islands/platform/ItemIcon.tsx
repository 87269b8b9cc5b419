import { File, FileArchive, FileAudio, FileImage, FileText, FileVideo, Folder } from 'lucide-react';
import { Emoji } from '../../components/pickers/Emoji.tsx';
import { emojiChar, type Item } from '../../stores/files.ts';

/** A file's icon by its stored mimetype; a folder in its colour, or its emoji when it has one. */
export function ItemIcon({ item, size = 'md' }: { item: Pick<Item, 'type' | 'attributes'>; size?: 'sm' | 'md' | 'lg' }) {
  const box = size === 'lg' ? 'size-14' : size === 'md' ? 'size-9' : 'size-5';
  const glyph = size === 'lg' ? 'size-12' : size === 'md' ? 'size-7' : 'size-5';
  const text = size === 'lg' ? 'text-5xl' : size === 'md' ? 'text-2xl' : 'text-base';
  if (item.type === 'folder') {
    if (emojiChar(item.attributes.emoji)) {
      return (
        <span className={`${box} ${text} inline-flex shrink-0 items-center justify-center leading-none`} aria-hidden>
          <Emoji value={item.attributes.emoji} />
        </span>
      );
    }
    return (
      <span className={`${box} inline-flex shrink-0 items-center justify-center`} aria-hidden>
        <Folder className={glyph} style={{ color: item.attributes.color ?? 'var(--brand)' }} fill="currentColor" fillOpacity={0.18} strokeWidth={1.75} />
      </span>
    );
  }
  const thumbnail = item.attributes.thumbnail;
  if (thumbnail) {
    const img = size === 'lg' ? 'h-16 w-20 rounded-lg' : size === 'md' ? 'size-9 rounded-md' : 'size-5 rounded';
    return <img src={size === 'lg' ? thumbnail.sm : thumbnail.xs} alt="" loading="lazy" decoding="async" className={`${img} shrink-0 bg-surface-2 object-cover`} />;
  }
  const type = item.attributes.mimetype ?? '';
  const Icon = type.startsWith('image/')
    ? FileImage
    : type.startsWith('video/')
      ? FileVideo
      : type.startsWith('audio/')
        ? FileAudio
        : /zip|compressed|tar|rar|7z/.test(type)
          ? FileArchive
          : type.startsWith('text/') || /pdf|document|msword|sheet|presentation/.test(type)
            ? FileText
            : File;
  return (
    <span className={`${box} inline-flex shrink-0 items-center justify-center text-muted`} aria-hidden>
      <Icon className={glyph} strokeWidth={1.5} />
    </span>
  );
}
