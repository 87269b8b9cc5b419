// The one-file build's first step: the server, Astro's server build and each CLI script bundled
// with esbuild, packages included, into <stage>/dist/. Only the packages in NATIVE_PACKAGES stay
// outside the bundle (natives.ts copies them into <stage>/node_modules).
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
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
    chunkNames: 'server/chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: [...NATIVE_PACKAGES, ...NATIVE_PACKAGES.map((p) => `${p}/*`), ...NEVER_INSTALLED],
    plugins: [cjsDynamicImports(root, isExternal)],
    banner: { js: BANNER },
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  const from = [`file://${root}/`, `${root}/`];
  for (const file of result.outputFiles) {
    let text = file.text;
    for (const prefix of from) text = text.replaceAll(prefix, prefix.startsWith('file:') ? `file://${NEUTRAL_ROOT}` : NEUTRAL_ROOT);
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, text);
  }
  await cp(path.join(root, 'dist/client'), path.join(dist, 'client'), { recursive: true });
  // The bundles are ES modules (.mjs); this marks the folder as the app's root for Node's resolver.
  await writeFile(path.join(stage, 'package.json'), `${JSON.stringify({ name: 'cloud-drive-payload', private: true, type: 'module' }, null, 2)}\n`);
  return { files: result.outputFiles.length };
}
