// The one-file build's pruned node_modules: the packages the bundle leaves external (bundle.ts,
// NATIVE_PACKAGES) and what they need, copied from the project's node_modules, without the files
// nothing loads at run time (C sources, type declarations, docs).
import { cp, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Arch, forOtherPlatform } from './target.ts';

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

/**
 * The packages `roots` need, following dependencies and optional ones, for linux-<arch>: each
 * name's folder from the first of `sources` (node_modules folders) that has it.
 */
export async function dependencyClosure(sources: string[], roots: string[], arch: Arch): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.shift()!;
    if (found.has(name) || INSTALL_ONLY.has(name) || forOtherPlatform(name, arch)) continue;
    const dir = sources.map((s) => path.join(s, name)).find((d) => existsSync(d));
    if (!dir) {
      if (roots.includes(name)) throw new Error(`${name} is not installed: run npm install`);
      continue; // an optional dependency not installed here (an unneeded one)
    }
    found.set(name, dir);
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Manifest;
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }));
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Copies those packages into `<stage>/node_modules`; returns their names. `extra` (another platform's packages) wins over the project's. */
export async function copyNatives(root: string, stage: string, roots: string[], arch: Arch, extra?: string): Promise<string[]> {
  const SKIPPED = skipped(arch);
  const packages = await dependencyClosure([...(extra ? [extra] : []), path.join(root, 'node_modules')], roots, arch);
  for (const [name, dir] of packages) {
    await cp(dir, path.join(stage, 'node_modules', name), {
      recursive: true,
      dereference: true,
      filter: (source) => !SKIPPED.some((pattern) => pattern.test(`/${name}${source.slice(dir.length)}`)),
    });
  }
  return [...packages.keys()];
}
