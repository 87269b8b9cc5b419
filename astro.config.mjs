// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { clientChunks } from './integrations/client-chunks.mjs';
import { compressAssets } from './integrations/compress-assets.mjs';
import { emojiData } from './integrations/emoji-data.mjs';
import { hostBundle } from './integrations/host-bundle.mjs';
import { modulePreloads } from './integrations/module-preloads.mjs';
import { API_BODY_LIMIT_BYTES } from './src/server/host/body-limit.ts';
import { INLINE_SCRIPT_HASHES, PAGE_CSP_DIRECTIVES } from './src/server/http/csp.ts';

export default defineConfig({
  output: 'server',
  // Our own Node server (src/main.ts, built to dist/host/main.mjs) owns the socket; Astro renders pages and JSON endpoints behind it.
  adapter: node({ mode: 'middleware', bodySizeLimit: API_BODY_LIMIT_BYTES }),
  integrations: [react(), modulePreloads(), compressAssets(), hostBundle()],
  // Behind the Node adapter Astro sees every request as http://localhost: we check Origin ourselves (src/middleware.ts).
  security: {
    checkOrigin: false,
    // Scripts only from this site or by hash (src/server/http/csp.ts says why and lists the directives).
    csp: {
      directives: [...PAGE_CSP_DIRECTIVES],
      scriptDirective: { hashes: INLINE_SCRIPT_HASHES },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  trailingSlash: 'ignore',
  build: { inlineStylesheets: 'auto' },
  vite: {
    plugins: [
      tailwindcss(),
      clientChunks(),
      emojiData(),
      paraglideVitePlugin({ project: './project.inlang', outdir: './src/paraglide', strategy: ['baseLocale'] }),
    ],
  },
});
