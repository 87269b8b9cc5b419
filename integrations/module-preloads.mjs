// @ts-check
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the layout's source holds until the build writes the list in (src/layouts/module-preloads.ts). */
const PLACEHOLDER = '__CLOUD_DRIVE_MODULE_PRELOADS__';

/** The app island (its component and React's client renderer), then the screens it loads lazily. */
const SHELL = ['src/islands/app/App.tsx', '@astrojs/react/dist/client.js'];
const SCREENS = /^src\/islands\/(platform\/[A-Za-z]+Screen|platform\/FilesNavigation|user\/[A-Za-z]+Screen|admin\/AdminArea)\.tsx$/;

/**
 * An island's scripts arrive one import level at a time: the browser learns of a chunk only when
 * the one importing it has arrived, and of a lazy screen only once the app runs. From the browser
 * build's chunk graph this writes, for the app shell and for each lazily loaded screen, every chunk
 * of its static import graph into the server build, where the app layout turns them into
 * `<link rel="modulepreload">` tags: the browser fetches all a route needs at once, from the HTML.
 * Written in after the build, as Astro writes in its own manifest.
 */
export function modulePreloads() {
  /** @type {{ shell: string[]; screens: Record<string, string[]> } | null} */
  let preloads = null;
  let root = '';
  /** @type {import('vite').Plugin} */
  const collect = {
    name: 'module-preloads-collect',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      /** @type {Map<string, import('rollup').OutputChunk>} */
      const chunkOf = new Map();
      /** Entry chunks by the module they stand for: what an island's component-url names. */
      /** @type {Map<string, import('rollup').OutputChunk>} */
      const facadeOf = new Map();
      /** @type {Map<string, import('rollup').OutputChunk>} */
      const byFile = new Map();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        byFile.set(output.fileName, output);
        const key = (id) => path.relative(root, id).split(path.sep).join('/').replace(/^node_modules\//, '');
        for (const id of output.moduleIds) chunkOf.set(key(id), output);
        if (output.facadeModuleId) facadeOf.set(key(output.facadeModuleId), output);
      }
      /** @param {string} source */
      const chunkFor = (source) => {
        const chunk = chunkOf.get(source);
        if (!chunk) throw new Error(`module-preloads: no browser chunk holds ${source}`);
        return chunk;
      };
      /** @param {import('rollup').OutputChunk[]} roots */
      const closure = (roots) => {
        const seen = new Set();
        const visit = (chunk) => {
          if (!chunk || seen.has(chunk.fileName)) return;
          seen.add(chunk.fileName);
          for (const next of chunk.imports) visit(byFile.get(next));
        };
        roots.forEach(visit);
        return [...seen].map((file) => `/${file}`);
      };
      const shell = closure(SHELL.flatMap((source) => [facadeOf.get(source) ?? chunkFor(source), chunkFor(source)]));
      /** @type {Record<string, string[]>} */
      const screens = {};
      for (const source of chunkOf.keys()) if (SCREENS.test(source)) screens[source] = closure([chunkFor(source)]).filter((url) => !shell.includes(url));
      preloads = { shell, screens };
    },
  };
  return {
    name: 'module-preloads',
    hooks: {
      /** @param {{ updateConfig: (config: object) => void }} options */
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [collect] } });
      },
      /** @param {{ dir: URL }} options */
      'astro:build:done': async ({ dir }) => {
        if (!preloads) throw new Error('module-preloads: the browser build did not run');
        const list = JSON.stringify(preloads);
        const literal = new RegExp(`(["'\`])${PLACEHOLDER}\\1`, 'g');
        let replaced = 0;
        const walk = async (folder) => {
          for (const entry of await readdir(folder, { withFileTypes: true })) {
            const full = path.join(folder, entry.name);
            if (entry.isDirectory()) await walk(full);
            else if (/\.m?js$/.test(entry.name)) {
              const source = await readFile(full, 'utf8');
              if (!source.includes(PLACEHOLDER)) continue;
              await writeFile(full, source.replace(literal, () => JSON.stringify(list)));
              replaced += 1;
            }
          }
        };
        await walk(fileURLToPath(new URL('../server/', dir)));
        if (replaced === 0) throw new Error('module-preloads: the layout’s placeholder is not in the server build');
        console.log(`module-preloads: ${preloads.shell.length} shell chunks, ${Object.keys(preloads.screens).length} screens`);
      },
    },
  };
}
