import { File, FileArchive, FileBadge, FileChartPie, FileCode, FileDigit, FileImage, FileMusic, FilePenLine, FileSpreadsheet, FileText, FileVideoCamera, Folder, type LucideIcon } from 'lucide-react';
import { fileKind, type FileKind } from '../../components/fileKinds.ts';
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
  const { Icon, colour } = KIND_ICONS[fileKind(item.attributes.mimetype, item.attributes.name)];
  return (
    <span className={`${box} inline-flex shrink-0 items-center justify-center ${colour}`} aria-hidden data-kind={fileKind(item.attributes.mimetype, item.attributes.name)}>
      <Icon className={glyph} strokeWidth={1.5} />
    </span>
  );
}

/** One icon and colour per kind of file, so a PDF, a table and a song look different at a glance. */
const KIND_ICONS: Record<FileKind, { Icon: LucideIcon; colour: string }> = {
  pdf: { Icon: FileBadge, colour: 'text-danger' },
  markdown: { Icon: FilePenLine, colour: 'text-info' },
  csv: { Icon: FileDigit, colour: 'text-success' },
  spreadsheet: { Icon: FileSpreadsheet, colour: 'text-success' },
  presentation: { Icon: FileChartPie, colour: 'text-warning' },
  document: { Icon: FileText, colour: 'text-info' },
  archive: { Icon: FileArchive, colour: 'text-warning' },
  audio: { Icon: FileMusic, colour: 'text-purple' },
  video: { Icon: FileVideoCamera, colour: 'text-danger' },
  image: { Icon: FileImage, colour: 'text-success' },
  code: { Icon: FileCode, colour: 'text-purple' },
  text: { Icon: FileText, colour: 'text-muted' },
  other: { Icon: File, colour: 'text-muted' },
};
