// @ts-check
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * Compiles the process entry (src/main.ts) and the server code it imports into one JavaScript
 * file, dist/host/main.mjs, at the end of every `astro build`. `npm start` runs that file: run from
 * source, Node strips the types of every module at start with its own compiler, whose memory stays
 * (about 30 MiB of resident memory at rest). Packages stay in node_modules, imported as usual.
 */
export function hostBundle() {
  return {
    name: 'host-bundle',
    hooks: {
      'astro:build:done': async () => {
        const root = new URL('../', import.meta.url);
        await build({
          entryPoints: [fileURLToPath(new URL('src/main.ts', root))],
          outfile: fileURLToPath(new URL('dist/host/main.mjs', root)),
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node24',
          packages: 'external',
          sourcemap: 'linked',
          legalComments: 'none',
          logLevel: 'warning',
        });
      },
    },
  };
}
