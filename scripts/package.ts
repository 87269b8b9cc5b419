// npm run package [-- --arch x64|arm64|all] [--skip-build] [--out <dir>]: builds
// release/cloud-drive-linux-x64 and -arm64 (all, the default), each one executable holding Node,
// the bundled app (server, pages, client assets, migrations, translations, CLI scripts) and the
// native addons. Steps: astro build (reproducible.ts); esbuild bundle (scripts/package/bundle.ts),
// once; per processor the pruned native packages (natives.ts, another processor's from the npm
// registry: target.ts), a deterministic tar.gz payload (archive.ts, its SHA-256 printed), Node's
// single executable application blob with packaging/launcher.cjs as its main script and the
// payload as an asset, which postject injects into a copy of that processor's Node binary.
import { execFileSync } from 'node:child_process';
import { cp, copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverNodeFlags } from './node-flags.ts';
import { compress, sha256, tarFolder } from './package/archive.ts';
import { bundleApp, COMMANDS, NATIVE_PACKAGES } from './package/bundle.ts';
import { copyNatives } from './package/natives.ts';
import { buildEnvironment } from './package/reproducible.ts';
import { type Arch, fetchTarget, TargetUnavailable } from './package/target.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values } = parseArgs({ options: { 'skip-build': { type: 'boolean', default: false }, out: { type: 'string', default: 'release' }, arch: { type: 'string', default: 'all' } } });
const OUT = path.resolve(ROOT, values.out);
const here = process.arch as Arch;
const ARCHES: Arch[] = values.arch === 'all' ? [here, ...(['x64', 'arm64'] as const).filter((a) => a !== here)] : [values.arch as Arch];
const started = performance.now();
const step = (what: string) => console.log(`package: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
/** Runs a tool quietly (Node's blob step and postject talk on success); what it said is in the error when it fails. */
const quietly = (args: string[], cwd = ROOT) => execFileSync(process.execPath, args, { cwd, stdio: 'pipe' });

if (Number(process.versions.node.split('.')[0]) < 24) throw new Error(`Node 24 or later is needed to build the executable (this is ${process.version})`);
if (here !== 'x64' && here !== 'arm64') throw new Error(`no build on ${here}: x64 or arm64`);
for (const arch of ARCHES) if (arch !== 'x64' && arch !== 'arm64') throw new Error(`no build for ${arch}: x64, arm64 or all`);

if (!values['skip-build']) {
  step('astro build');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: ROOT, stdio: 'inherit', env: await buildEnvironment(ROOT) });
}
const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

const APP = path.join(OUT, 'build-app');
await rm(APP, { recursive: true, force: true });
step('bundling with esbuild');
const { files: bundled } = await bundleApp(ROOT, APP);
step(`${bundled} bundle files`);
for (const arch of ARCHES) {
  try {
    await buildExecutable(arch);
  } catch (error) {
    // `all`: this processor's executable is made whatever the registry holds for the other one.
    if (!(error instanceof TargetUnavailable) || arch === here || values.arch !== 'all') throw error;
    console.log(`package: linux-${arch} skipped: ${error.message}`);
  }
}
await rm(APP, { recursive: true });

async function buildExecutable(arch: Arch): Promise<void> {
  // Intermediate files (payload, blob) per processor; another processor's Node and native packages come from the npm registry.
  const work = path.join(OUT, `build-linux-${arch}`);
  const stage = path.join(work, 'stage');
  const target = arch === here ? { modules: undefined, node: process.execPath, blobMaker: null } : await fetchTarget(ROOT, arch);
  await rm(work, { recursive: true, force: true });
  await cp(APP, stage, { recursive: true });
  const natives = await copyNatives(ROOT, stage, NATIVE_PACKAGES, arch, target.modules);
  step(`linux-${arch}: ${natives.length} packages kept in node_modules: ${natives.join(', ')}`);

  const { tar, files } = await tarFolder(stage);
  const payload = compress(tar);
  const hash = sha256(payload);
  await writeFile(path.join(work, 'payload.tar.gz'), payload);
  step(`linux-${arch}: payload of ${files.length} files, ${(tar.length / 2 ** 20).toFixed(1)} MiB → ${(payload.length / 2 ** 20).toFixed(1)} MiB gzip`);
  console.log(`payload sha256 ${hash} linux-${arch}`);

  // The launcher checks the unpacked cache against this list (from the executable, not from the disk it checks).
  const meta = { version, sha256: hash, commands: COMMANDS, files: files.map((f) => [f.path, f.size, f.sha256]) };
  await writeFile(path.join(work, 'meta.json'), JSON.stringify(meta));
  await copyFile(path.join(ROOT, 'packaging/launcher.cjs'), path.join(work, 'launcher.cjs'));
  const seaConfig = {
    main: 'launcher.cjs',
    output: 'sea-prep.blob',
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    // Code caches and snapshots are for the processor that makes them: the blob stays portable without.
    useCodeCache: false,
    // As `npm start`: V8 flags that keep the resident memory low (README, Benchmarks).
    execArgv: serverNodeFlags(),
    assets: { payload: 'payload.tar.gz', meta: 'meta.json' },
  };
  await writeFile(path.join(work, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
  // The blob is read by the Node version that made it: the target's own release when it is not this one.
  execFileSync(target.blobMaker ?? process.execPath, ['--experimental-sea-config', 'sea-config.json'], { cwd: work, stdio: 'pipe' });

  const exe = path.join(OUT, `cloud-drive-linux-${arch}`);
  await copyFile(target.node, exe);
  // postject warns about ELF note sections it does not know, harmlessly.
  quietly([path.join(ROOT, 'node_modules/postject/dist/cli.js'), exe, 'NODE_SEA_BLOB', path.join(work, 'sea-prep.blob'), '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2']);
  await rm(stage, { recursive: true });
  const size = (await stat(exe)).size;
  step(`${path.relative(ROOT, exe)}: ${(size / 2 ** 20).toFixed(1)} MiB (limit 200 MB), Node from ${target.node}`);
  console.log(`executable sha256 ${sha256(await readFile(exe))} ${path.basename(exe)}`);
  if (size >= 200_000_000) throw new Error(`${exe} is over 200 MB`);
}
