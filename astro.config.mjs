// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';
import { compressAssets } from './integrations/compress-assets.mjs';

export default defineConfig({
  output: 'server',
  // Our own Node server (src/main.ts) owns the socket; Astro renders pages and JSON endpoints behind it.
  adapter: node({ mode: 'middleware', bodySizeLimit: 12 * 1024 * 1024 }),
  integrations: [react(), compressAssets()],
  // Behind the Node adapter Astro sees every request as http://localhost: we check Origin ourselves (src/middleware.ts).
  security: { checkOrigin: false },
  trailingSlash: 'ignore',
  build: { inlineStylesheets: 'auto' },
  vite: {
    plugins: [
      tailwindcss(),
      paraglideVitePlugin({ project: './project.inlang', outdir: './src/paraglide', strategy: ['baseLocale'] }),
    ],
  },
});
