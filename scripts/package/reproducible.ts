// What keeps the one-file build's payload byte-identical from the same lock file, on any machine and
// in any folder: Astro's build reads the environment in two ways that would put the machine's
// state into it.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The environment for `astro build` when packaging: a fixed one, not the caller's.
 * - Astro inlines into `import.meta.env` every environment variable whose name occurs in a
 *   module that uses the whole object (its actions client does, and `_`, the shell's last
 *   command, occurs everywhere).
 * - Astro makes a random key per build for server islands and actions unless ASTRO_KEY is set.
 *   The app uses neither; the key is derived from the lock file, or taken from ASTRO_KEY when the
 *   release pipeline sets one (needed should the app ever use them: a derived key is public).
 */
export async function buildEnvironment(root: string): Promise<NodeJS.ProcessEnv> {
  const lock = await readFile(path.join(root, 'package-lock.json'));
  const derived = createHash('sha256').update('cloud-drive astro key\n').update(lock).digest('base64');
  return { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', ASTRO_KEY: process.env.ASTRO_KEY || derived };
}
