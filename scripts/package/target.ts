// The one-file build for another processor than this one (`npm run package -- --arch arm64` on
// x64): the packages that hold machine code for it come from the npm registry, each at the version
// of its counterpart installed here, into a cache folder outside the project's node_modules. Node
// itself: this Node's version when the registry has it for that processor; otherwise the newest
// release of the same major line (the same native-addon ABI) that the registry has for both
// processors, and the executable's blob is then made by this processor's build of that release
// (a blob is read by the Node version that made it).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
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

/** What the target's executable needs is not on the registry (or the registry cannot be reached): it cannot be made here. */
export class TargetUnavailable extends Error {}

const semver = (v: string) => v.split('.').map(Number) as [number, number, number];
const newer = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/**
 * The Node release the target's executable is built on: `current` when the registry has it for the
 * target, else the newest release of the same major line published for the target and for this
 * processor alike (`blobMaker` then names this processor's build of it). Pre-releases never.
 */
export function chooseNodeRelease(current: string, published: { target: string[]; here: string[] }): { version: string; blobMaker: string | null } {
  if (published.target.includes(current)) return { version: current, blobMaker: null };
  const major = semver(current)[0];
  const both = published.target.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && semver(v)[0] === major && published.here.includes(v)).sort(newer);
  const version = both.at(-1);
  if (!version) throw new TargetUnavailable(`the npm registry has no Node ${major}.x release for both processors (this Node is ${current})`);
  return { version, blobMaker: version };
}

function publishedVersions(name: string): string[] {
  try {
    return JSON.parse(execFileSync('npm', ['view', name, 'versions', '--json', '--loglevel=error'], { encoding: 'utf8' })) as string[];
  } catch {
    return [];
  }
}

/**
 * A folder holding `node_modules/` with the target's native packages and
 * `node_modules/node-linux-<arch>/bin/node`; `blobMaker`: the Node (of this processor) to make the
 * executable's blob with, when the target's Node is another release than this one.
 */
export async function fetchTarget(root: string, arch: Arch): Promise<{ modules: string; node: string; blobMaker: string | null }> {
  const here = process.arch as Arch;
  // Outside the checkout, like the Node scripts/provision.sh installs: a fresh clone fetches nothing twice.
  const dir = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cloud-drive/package', `linux-${arch}`);
  const release = chooseNodeRelease(process.versions.node, { target: publishedVersions(`node-linux-${arch}`), here: publishedVersions(`node-linux-${here}`) });
  if (release.blobMaker) console.log(`package: the npm registry has no node-linux-${arch}@${process.versions.node}; linux-${arch} is built on Node ${release.version}`);
  const wanted: string[] = [`node-linux-${arch}@${release.version}`];
  if (release.blobMaker) wanted.push(`node-linux-${here}@${release.blobMaker}`);
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
    let packed: { name: string; filename: string }[];
    try {
      packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', dir, ...wanted], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
    } catch (error) {
      const said = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n')[0];
      throw new TargetUnavailable(`npm pack ${wanted.join(' ')} failed${said ? `: ${said}` : ''}`);
    }
    for (const { name, filename } of packed) {
      const into = path.join(modules, name);
      await mkdir(into, { recursive: true });
      execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', into, '--strip-components=1', '--no-same-owner']);
      await rm(path.join(dir, filename));
    }
  }
  return {
    modules,
    node: path.join(modules, `node-linux-${arch}`, 'bin/node'),
    blobMaker: release.blobMaker ? path.join(modules, `node-linux-${here}`, 'bin/node') : null,
  };
}
