import type { PickedFile } from '../../stores/uploads.ts';

/**
 * Files from a drop, with the folder structure of any dropped folders (webkitGetAsEntry), or from
 * an <input type=file> (webkitRelativePath when a folder was picked).
 */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items].map((item) => (item.kind === 'file' ? item.webkitGetAsEntry?.() : null)).filter((e): e is FileSystemEntry => !!e);
  if (!entries.length) return [...data.files].map((file) => ({ file, relativeDir: null }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, null, out);
  return out;
}

async function walk(entry: FileSystemEntry, dir: string | null, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, relativeDir: dir });
    return;
  }
  if (!entry.isDirectory) return;
  const path = dir ? `${dir}/${entry.name}` : entry.name;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until it answers an empty list.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    for (const child of batch) await walk(child, path, out);
  }
}

export function filesFromInput(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => {
    const rel = file.webkitRelativePath;
    const cut = rel ? rel.lastIndexOf('/') : -1;
    return { file, relativeDir: cut > 0 ? rel.slice(0, cut) : null };
  });
}
