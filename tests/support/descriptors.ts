import { readdir, readlink } from 'node:fs/promises';

/** How many of this process's open descriptors point at `file` (Linux: /proc/self/fd). */
export async function openDescriptors(file: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target === file) count += 1;
  }
  return count;
}
