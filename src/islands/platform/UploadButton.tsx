import { FileUp, FolderUp, Link, Upload } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useRef } from 'react';
import { useT } from '../../stores/i18n.ts';
import { openDialog } from '../../stores/dialogs.ts';
import { enqueue } from '../../stores/uploads.ts';
import { filesFromInput } from './pick-files.ts';

/** Upload files or a whole folder into `parentId`. */
export function UploadButton({ parentId, className = '' }: { parentId: string | null; className?: string }) {
  const t = useT();
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const take = (input: HTMLInputElement | null) => {
    if (!input) return;
    enqueue(filesFromInput(input.files), parentId);
    input.value = '';
  };
  return (
    <>
      <input ref={files} type="file" multiple className="hidden" data-testid="upload-files-input" onChange={(e) => take(e.currentTarget)} />
      <input
        ref={(el) => {
          folder.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        className="hidden"
        data-testid="upload-folder-input"
        onChange={(e) => take(e.currentTarget)}
      />
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button type="button" className={`btn-secondary mr-1 shrink-0 px-3 py-2 text-sm whitespace-nowrap ${className}`}>
            <Upload className="size-4" aria-hidden />
            <span className="hidden sm:inline">{t('uploads.upload')}</span>
            <span className="sr-only sm:hidden">{t('uploads.upload')}</span>
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={6} className="card z-50 min-w-[200px] p-1.5 shadow-xl">
            <DropdownMenu.Item onSelect={() => files.current?.click()} className="flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2">
              <FileUp className="size-4" aria-hidden />
              {t('uploads.upload_files')}
            </DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => folder.current?.click()} className="flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2">
              <FolderUp className="size-4" aria-hidden />
              {t('uploads.upload_folder')}
            </DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => openDialog({ kind: 'import', parentId })} className="flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2">
              <Link className="size-4" aria-hidden />
              {t('uploads.import_url')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </>
  );
}

/** One button straight to the file picker (the empty folder's call to action). */
export function UploadFilesButton({ parentId }: { parentId: string | null }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        className="hidden"
        onChange={(e) => {
          enqueue(filesFromInput(e.currentTarget.files), parentId);
          e.currentTarget.value = '';
        }}
      />
      <button type="button" className="btn-secondary" onClick={() => input.current?.click()}>
        <FileUp className="size-4" aria-hidden />
        {t('uploads.upload_files')}
      </button>
    </>
  );
}
