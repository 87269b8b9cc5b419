import { Upload } from 'lucide-react';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { isTeamSource, type Source } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { enqueue } from '../../stores/uploads.ts';
import { canWriteHere } from './actions.ts';
import { hasDragItems } from './dnd.ts';
import { filesFromDrop } from './pick-files.ts';

/** Files and folders dropped from the desktop anywhere on the file view upload into the open folder. */
export function DropZone({ source, children }: { source: Source; children: ReactNode }) {
  const t = useT();
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const writable = source.kind !== 'trash' && !(isTeamSource(source) && source.id === null) && canWriteHere();
  const accepts = (e: DragEvent) => writable && e.dataTransfer.types.includes('Files') && !hasDragItems(e);
  const parentId = source.kind === 'folder' || isTeamSource(source) ? source.id : null;
  return (
    <div
      className="relative"
      data-testid="drop-zone"
      onDragEnter={(e) => {
        if (!accepts(e)) return;
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (!accepts(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        void filesFromDrop(e.dataTransfer).then((files) => enqueue(files, parentId));
      }}
    >
      {children}
      {over && (
        <div className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center rounded-card border-2 border-dashed border-brand bg-brand-soft/80">
          <p className="flex items-center gap-2 text-[15px] font-semibold text-brand">
            <Upload className="size-5" aria-hidden />
            {t('uploads.drop_here')}
          </p>
        </div>
      )}
    </div>
  );
}
