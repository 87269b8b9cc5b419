// npm run package [-- --skip-build] [--out <dir>] [--arch arm64]: builds cloud-drive-linux-x64, one executable
// holding Node, the bundled app (server, pages, client assets, migrations, translations, CLI
// scripts) and the native addons. Steps: astro build; esbuild bundle (scripts/package/bundle.ts);
// the pruned native packages (natives.ts); a deterministic tar.gz payload (archive.ts, its SHA-256
// printed); Node's single executable application blob with packaging/launcher.cjs as its main
// script and the payload as an asset; postject injects it into a copy of this Node binary.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compress, sha256, tarFolder } from './package/archive.ts';
import { bundleApp, COMMANDS, NATIVE_PACKAGES } from './package/bundle.ts';
import { copyNatives } from './package/natives.ts';
import { buildEnvironment } from './package/reproducible.ts';
import { type Arch, fetchTarget } from './package/target.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values } = parseArgs({ options: { 'skip-build': { type: 'boolean', default: false }, out: { type: 'string', default: 'release' }, arch: { type: 'string', default: process.arch } } });
const OUT = path.resolve(ROOT, values.out);
const ARCH = values.arch as Arch;
// Intermediate files (payload, blob) per processor, so that building one keeps the other's executable.
const WORK = path.join(OUT, `build-linux-${ARCH}`);
const STAGE = path.join(WORK, 'stage');
const started = performance.now();
const step = (what: string) => console.log(`package: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

if (Number(process.versions.node.split('.')[0]) < 24) throw new Error(`Node 24 or later is needed to build the executable (this is ${process.version})`);
if (ARCH !== 'x64' && ARCH !== 'arm64') throw new Error(`no build for ${ARCH}: x64 or arm64`);
// Another processor's Node and native packages come from the npm registry (target.ts).
const target = ARCH === process.arch ? { modules: undefined, node: process.execPath } : await fetchTarget(ROOT, ARCH);

if (!values['skip-build']) {
  step('astro build');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: ROOT, stdio: 'inherit', env: await buildEnvironment(ROOT) });
}
const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

await rm(WORK, { recursive: true, force: true });
await mkdir(STAGE, { recursive: true });
step('bundling with esbuild');
const { files: bundled } = await bundleApp(ROOT, STAGE);
step(`${bundled} bundle files; copying native packages`);
const natives = await copyNatives(ROOT, STAGE, NATIVE_PACKAGES, ARCH, target.modules);
step(`${natives.length} packages kept in node_modules: ${natives.join(', ')}`);

const { tar, files } = await tarFolder(STAGE);
const payload = compress(tar);
const hash = sha256(payload);
await writeFile(path.join(WORK, 'payload.tar.gz'), payload);
step(`payload: ${files.length} files, ${(tar.length / 2 ** 20).toFixed(1)} MiB → ${(payload.length / 2 ** 20).toFixed(1)} MiB gzip`);
console.log(`payload sha256 ${hash}`);

// The launcher checks the unpacked cache against this list (from the executable, not from the disk it checks).
const meta = { version, sha256: hash, commands: COMMANDS, files: files.map((f) => [f.path, f.size, f.sha256]) };
await writeFile(path.join(WORK, 'meta.json'), JSON.stringify(meta));
await copyFile(path.join(ROOT, 'packaging/launcher.cjs'), path.join(WORK, 'launcher.cjs'));
const seaConfig = {
  main: 'launcher.cjs',
  output: 'sea-prep.blob',
  disableExperimentalSEAWarning: true,
  useSnapshot: false,
  useCodeCache: false,
  // As `npm start`: a small young generation keeps the resident memory low (README, Benchmarks).
  execArgv: ['--max-semi-space-size=2'],
  assets: { payload: 'payload.tar.gz', meta: 'meta.json' },
};
await writeFile(path.join(WORK, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
step('single executable application blob');
execFileSync(process.execPath, ['--experimental-sea-config', 'sea-config.json'], { cwd: WORK, stdio: ['ignore', 'ignore', 'inherit'] });

const exe = path.join(OUT, `cloud-drive-linux-${ARCH}`);
await copyFile(target.node, exe);
step(`injecting into a copy of ${target.node}`);
execFileSync(process.execPath, [path.join(ROOT, 'node_modules/postject/dist/cli.js'), exe, 'NODE_SEA_BLOB', path.join(WORK, 'sea-prep.blob'), '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'], {
  stdio: 'pipe', // postject warns about ELF note sections it does not know, harmlessly; its output is shown only if it fails
});
await rm(STAGE, { recursive: true });
const size = (await stat(exe)).size;
step(`${path.relative(ROOT, exe)}: ${(size / 2 ** 20).toFixed(1)} MiB (limit 200 MB)`);
if (size >= 200_000_000) throw new Error('the executable is over 200 MB');
