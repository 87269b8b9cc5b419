// @ts-check
import { createReadStream, createWriteStream } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|ico|map)$/;
/** Below this a compressed copy saves less than the header it adds. */
const MIN_BYTES = 1024;

async function* files(dir) {
  for await (const entry of await opendir(dir)) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text asset of
 * the client build, once at build time, so the static handler (src/server/host/static.ts) serves
 * them by Accept-Encoding with no compression work per request.
 */
export function compressAssets() {
  return {
    name: 'compress-assets',
    hooks: {
      /** @param {{ dir: URL }} options */
      'astro:build:done': async ({ dir }) => {
        // With a server build `dir` is dist/client/ already; a static build would hand dist/.
        const root = fileURLToPath(dir);
        let count = 0;
        for await (const file of files(root)) {
          if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
          await pipeline(createReadStream(file), createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), createWriteStream(`${file}.br`));
          await pipeline(createReadStream(file), createGzip({ level: 9 }), createWriteStream(`${file}.gz`));
          count += 1;
        }
        console.log(`compress-assets: ${count} assets pre-compressed (brotli, gzip)`);
      },
    },
  };
}
