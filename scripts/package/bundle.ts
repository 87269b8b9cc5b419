// The one-file build's first step: the server, Astro's server build and each CLI script bundled
// with esbuild, packages included, into <stage>/dist/. Only the packages in NATIVE_PACKAGES stay
// outside the bundle (natives.ts copies them into <stage>/node_modules).
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { renameChunks } from './chunk-names.ts';
import { cjsDynamicImports } from './interop.ts';

/** CLI subcommands of the executable, by their npm script name, and the script each runs. */
export const COMMANDS = {
  setup: 'setup',
  'admin:create': 'create-admin',
  migrate: 'migrate',
  fsck: 'fsck',
  'storage:migrate': 'storage-migrate',
  'billing:run': 'billing-run',
} as const;

/**
 * Packages esbuild cannot fold into the bundle: native addons that find their `.node` file (and,
 * for sharp, libvips) beside their own files, and the password-strength dictionaries, which
 * src/server/auth/strength.ts loads on first use with a runtime `require` that esbuild cannot see.
 */
export const NATIVE_PACKAGES = ['better-sqlite3', 'sharp', '@node-rs/argon2', '@zxcvbn-ts/core', '@zxcvbn-ts/language-common'];

/** Optional requires of bundled packages that are not installed and never needed (pg's native binding). */
const NEVER_INSTALLED = ['pg-native'];

/** The path the build machine's project folder is replaced with, so the payload does not depend on where it was built. */
export const NEUTRAL_ROOT = '/cloud-drive/';

// esbuild turns `require('x')` of bundled CommonJS into a shim that throws for Node's built-ins in
// an ES module; a real `require` in each file's scope lets it load them.
const BANNER = "import { createRequire as __cloudDriveCreateRequire } from 'node:module';\nconst require = __cloudDriveCreateRequire(import.meta.url);";

/** Astro's build output, read with the build machine's folder replaced by NEUTRAL_ROOT (the paths are debug names, or used relative to each other). */
function neutralPaths(root: string): Plugin {
  const built = path.join(root, 'dist/server') + path.sep;
  return {
    name: 'neutral-paths',
    setup(b) {
      b.onLoad({ filter: /\.mjs$/ }, async (args) => {
        if (!args.path.startsWith(built)) return undefined;
        const text = await readFile(args.path, 'utf8');
        const neutral = text
          .replaceAll(`file://${root}/`, `file://${NEUTRAL_ROOT}`)
          .replaceAll(`${root}/`, NEUTRAL_ROOT)
          // The manifest's entryModules also name Astro's server chunks, by hashes of that code; nothing loads them by
          // those names (the bundle has its own chunks; only client assets are looked up there), so the hash goes.
          .replace(/":"chunks\/([^"]*?)_[\w-]{8}\.mjs"/g, '":"chunks/$1.mjs"')
          // …and come in the order of those hashes: sorted by key instead.
          .replace(/"entryModules":(\{[^{}]*\})/, (_, map: string) => {
            const entries = Object.entries(JSON.parse(map) as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
            return `"entryModules":${JSON.stringify(Object.fromEntries(entries))}`;
          });
        return { contents: neutral, loader: 'js' };
      });
    },
  };
}

const isExternal = (specifier: string) => [...NATIVE_PACKAGES, ...NEVER_INSTALLED].some((p) => specifier === p || specifier.startsWith(`${p}/`));

export async function bundleApp(root: string, stage: string): Promise<{ files: number }> {
  const dist = path.join(stage, 'dist');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [
      { in: 'src/main.ts', out: 'host/main' },
      { in: 'dist/server/entry.mjs', out: 'server/entry' },
      ...Object.values(COMMANDS).map((script) => ({ in: `scripts/${script}.ts`, out: `host/cli/${script}` })),
    ],
    outdir: dist,
    // Shared code (packages used by both the host and Astro's pages) is loaded once, as it is from node_modules.
    // The chunks sit under server/: @astrojs/node finds the client folder by walking up to a folder named `server`.
    splitting: true,
    // Renamed by their code afterwards (chunk-names.ts): esbuild's hash covers input paths too.
    chunkNames: 'server/chunks/[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: [...NATIVE_PACKAGES, ...NATIVE_PACKAGES.map((p) => `${p}/*`), ...NEVER_INSTALLED],
    plugins: [neutralPaths(root), cjsDynamicImports(root, isExternal)],
    banner: { js: BANNER },
    legalComments: 'none',
    // No whitespace and no comments (esbuild's `// path` comments would carry Astro's path-dependent file names); names stay.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    write: false,
  });
  const outputs = renameChunks(
    result.outputFiles.map((f) => ({ path: f.path, text: f.text })),
    path.join(dist, 'server/chunks'),
  );
  for (const file of outputs) {
    // Astro's build names its source files by absolute path (components' debug names, the manifest's folders).
    const at = file.text.indexOf(root);
    if (at >= 0) throw new Error(`${path.relative(stage, file.path)} names the build folder: …${file.text.slice(Math.max(0, at - 120), at + 80)}…`);
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text);
  }
  await cp(path.join(root, 'dist/client'), path.join(dist, 'client'), { recursive: true });
  // The bundles are ES modules (.mjs); this marks the folder as the app's root for Node's resolver.
  await writeFile(path.join(stage, 'package.json'), `${JSON.stringify({ name: 'cloud-drive-payload', private: true, type: 'module' }, null, 2)}\n`);
  return { files: result.outputFiles.length };
}
