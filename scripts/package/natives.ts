// The one-file build's pruned node_modules: the packages the bundle leaves external (bundle.ts,
// NATIVE_PACKAGES) and what they need, copied from the project's node_modules, without the files
// nothing loads at run time (C sources, type declarations, docs).
import { cp, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * Files nothing loads at run time on linux-<arch>: better-sqlite3's C sources and build folder
 * (it loads prebuilds/linux-<arch>.node), its other platforms' binaries, type declarations, docs.
 */
function skipped(arch: string): RegExp[] {
  return [
    /^\/better-sqlite3\/(?:deps|src|build|binding\.gyp)$/,
    new RegExp(`^/better-sqlite3/prebuilds/(?!linux-${arch}\\.node$)[^/]+$`),
    /\.d\.[cm]?ts$/,
    /\.md$/i,
    /\.map$/,
    /\/\.bin$/,
  ];
}

/** Dependencies used only while installing (better-sqlite3 downloads or builds its binary with them). */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-gyp', 'node-addon-api']);

/** The package folders (relative to node_modules) that `roots` need, following dependencies and installed optional ones. */
export async function dependencyClosure(nodeModules: string, roots: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name) || INSTALL_ONLY.has(name)) continue;
    const dir = path.join(nodeModules, name);
    if (!existsSync(dir)) {
      if (roots.includes(name)) throw new Error(`${name} is not installed: run npm install`);
      continue; // an optional dependency for another platform
    }
    seen.add(name);
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Manifest;
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }));
  }
  return [...seen].sort();
}

/** Copies those packages into `<stage>/node_modules`; returns their names. */
export async function copyNatives(root: string, stage: string, roots: string[], arch = 'x64'): Promise<string[]> {
  const from = path.join(root, 'node_modules');
  const SKIPPED = skipped(arch);
  const packages = await dependencyClosure(from, roots);
  for (const name of packages) {
    await cp(path.join(from, name), path.join(stage, 'node_modules', name), {
      recursive: true,
      dereference: true,
      filter: (source) => !SKIPPED.some((pattern) => pattern.test(source.slice(from.length))),
    });
  }
  return packages;
}
