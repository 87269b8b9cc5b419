// The one-file build for another processor than this one (`npm run package -- --arch arm64` on
// x64): the packages that hold machine code for it come from the npm registry, each at the version
// of its counterpart installed here (Node at exactly this Node's version: the executable's blob is
// made by this Node and read by that one), into a cache folder outside the project's node_modules.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

export type Arch = 'x64' | 'arm64';

/** Whether a package holds another platform's binaries than linux-<arch> with glibc. */
export function forOtherPlatform(name: string, arch: Arch): boolean {
  if (/-(?:darwin|win32|freebsd|android|wasm32|linuxmusl)\b|-musl$/.test(name)) return true;
  const linux = /-linux-(x64|arm64|arm|ppc64|s390x|riscv64)\b/.exec(name);
  return linux !== null && linux[1] !== arch;
}

/** This machine's packages that have another processor's counterpart named by swapping the arch. */
const PER_ARCH = ['@img/sharp-linux-ARCH', '@img/sharp-libvips-linux-ARCH', '@node-rs/argon2-linux-ARCH-gnu'];

/** A folder holding `node_modules/` with the target's native packages and `node_modules/node-linux-<arch>/bin/node`. */
export async function fetchTarget(root: string, arch: Arch): Promise<{ modules: string; node: string }> {
  const here = process.arch as Arch;
  const dir = path.join(root, 'node_modules/.cache/cloud-drive-package', `linux-${arch}`);
  const wanted: string[] = [`node-linux-${arch}@${process.versions.node}`];
  for (const pattern of PER_ARCH) {
    const local = pattern.replace('ARCH', here);
    const { version } = JSON.parse(await readFile(path.join(root, 'node_modules', local, 'package.json'), 'utf8')) as { version: string };
    wanted.push(`${pattern.replace('ARCH', arch)}@${version}`);
  }
  const modules = path.join(dir, 'node_modules');
  const present = await Promise.all(
    wanted.map(async (spec) => {
      const at = spec.lastIndexOf('@');
      const file = path.join(modules, spec.slice(0, at), 'package.json');
      return existsSync(file) && (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version === spec.slice(at + 1);
    }),
  );
  if (present.includes(false)) {
    // `npm pack` fetches a package's tarball whatever its os/cpu fields say (npm install refuses another cpu).
    console.log(`package: fetching ${wanted.join(', ')} from the npm registry`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', dir, ...wanted], { encoding: 'utf8' })) as { name: string; filename: string }[];
    for (const { name, filename } of packed) {
      const into = path.join(modules, name);
      await mkdir(into, { recursive: true });
      execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', into, '--strip-components=1', '--no-same-owner']);
      await rm(path.join(dir, filename));
    }
  }
  return { modules, node: path.join(modules, `node-linux-${arch}`, 'bin/node') };
}
