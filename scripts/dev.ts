// npm run dev: builds, starts the server (dist/host/main.mjs, built from src/main.ts), and on every source change rebuilds and restarts it.
// The product is one custom Node server (src/main.ts, bundled into dist/host/main.mjs) that serves the Astro build in dist/,
// so a change anywhere (pages, islands, server, migrations, messages) needs `astro build` and a new process.
// A failed build leaves the running server as it was; Ctrl-C stops both.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync, watch } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WATCHED = ['src', 'db', 'migrations', 'messages', 'public', 'astro.config.mjs', 'project.inlang'];
/** Written by the build itself (paraglide compiles into src/paraglide): watching them would rebuild forever. */
const IGNORED = [/^src\/paraglide(\/|$)/, /(^|\/)\.astro(\/|$)/, /~$/, /\.swp$/, /(^|\/)\.#/];
const SETTLE_MS = 150;
const STOP_GRACE_MS = 5_000;

let server: ChildProcess | null = null;
let building = false;
let pending = false;
let timer: NodeJS.Timeout | undefined;
let quitting = false;

function run(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  return once(child, 'exit').then(([code]) => (typeof code === 'number' ? code : 1));
}

async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(kill);
}

function startServer(): void {
  const child = spawn(process.execPath, ['dist/host/main.mjs'], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (server === child && !quitting) console.log(`dev: the server stopped (${signal ?? `exit ${code}`}); it starts again on the next change`);
  });
  server = child;
}

async function rebuild(): Promise<void> {
  if (building) {
    pending = true;
    return;
  }
  building = true;
  do {
    pending = false;
    const started = performance.now();
    const code = await run(process.execPath, [fileURLToPath(new URL('../node_modules/astro/bin/astro.mjs', import.meta.url)), 'build']);
    if (quitting) return;
    if (code !== 0) {
      console.error(`dev: the build failed (exit ${code}); ${server ? 'the running server stays as it was' : 'no server is running'}; fix the error and save again`);
      continue;
    }
    console.log(`dev: built in ${Math.round(performance.now() - started)} ms; restarting the server`);
    await stopServer();
    startServer();
  } while (pending && !quitting);
  building = false;
}

function changed(path: string): void {
  if (IGNORED.some((re) => re.test(path))) return;
  clearTimeout(timer);
  timer = setTimeout(() => {
    console.log(`dev: ${path} changed`);
    void rebuild();
  }, SETTLE_MS);
}

for (const entry of WATCHED) {
  const absolute = fileURLToPath(new URL(`../${entry}`, import.meta.url));
  let folder: boolean;
  try {
    folder = statSync(absolute).isDirectory();
  } catch {
    continue;
  }
  watch(absolute, { recursive: folder }, (_event, file) => changed(folder && file ? `${entry}/${file}` : entry));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    quitting = true;
    void stopServer().then(() => process.exit(0));
  });
}

console.log(`dev: watching ${WATCHED.join(', ')}; a change rebuilds and restarts the server`);
await rebuild();
