// The main script of the one-file build (cloud-drive-linux-x64, made by `npm run package`).
// Node runs it as a CommonJS script from the executable; it unpacks the app (a tar.gz asset) once
// into a versioned cache folder, checks it against the file list built into the executable, and
// imports the real entry from there: the server, or the CLI script a subcommand names.
'use strict';
const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { gunzipSync } = require('node:zlib');
const sea = require('node:sea');

const meta = JSON.parse(sea.getAsset('meta', 'utf8'));
const NAME = 'cloud-drive';
const MARKER = '.cloud-drive-payload';

const HELP = `${NAME} ${meta.version}: a self-hosted cloud drive in one file.

Usage:
  ${NAME}                      start the server (first start prints the setup token)
  ${NAME} setup --admin-email <email> --admin-password <password> [--admin-name <name>]
                [--database-url postgres://…] [--app-name <name>]
                               install unattended (instead of the setup page)
  ${NAME} admin:create …       create an admin account
  ${NAME} migrate              apply pending database migrations
  ${NAME} fsck [--repair]      compare the blob store with the database
  ${NAME} storage:migrate …    move blobs between local disk and S3
  ${NAME} billing:run …        run the billing day now
  ${NAME} --version | --help

Configuration as with npm start: environment variables, or a .env file in the working folder
(DATA_DIR defaults to ./data, PORT to 3000). The app unpacks once into
$CLOUD_DRIVE_CACHE_DIR, else $XDG_CACHE_HOME/cloud-drive, else ~/.cache/cloud-drive.`;

function cacheRoot() {
  if (process.env.CLOUD_DRIVE_CACHE_DIR) return path.resolve(process.env.CLOUD_DRIVE_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, NAME);
}

/** Whether `dir` holds exactly the payload's files: the marker names this payload, and every file has its size and SHA-256. */
function verified(dir) {
  try {
    if (fs.readFileSync(path.join(dir, MARKER), 'utf8') !== meta.sha256) return false;
    for (const [file, size, sha] of meta.files) {
      const bytes = fs.readFileSync(path.join(dir, file));
      if (bytes.length !== size || createHash('sha256').update(bytes).digest('hex') !== sha) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Reads the ustar archive (with PAX `path` records) that scripts/package/archive.ts writes, into `dir`. */
function untar(tar, dir) {
  let offset = 0;
  let longName = null;
  while (offset + 512 <= tar.length) {
    const block = tar.subarray(offset, offset + 512);
    if (block.every((b) => b === 0)) break;
    const field = (start, length) => block.toString('utf8', start, start + length).replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1] ?? null;
      continue;
    }
    const name = longName ?? field(0, 100);
    longName = null;
    const target = path.join(dir, name);
    if (path.relative(dir, target).startsWith('..')) throw new Error(`payload entry outside its folder: ${name}`);
    const mode = Number.parseInt(field(100, 8), 8);
    if (type === '5') fs.mkdirSync(target, { recursive: true, mode });
    else if (type === '0' || type === '') fs.writeFileSync(target, body, { mode });
    else throw new Error(`payload entry of unknown type ${type}: ${name}`);
  }
}

/** Folders that a start killed while unpacking left behind (named by its process id, which is gone). */
function removeLeftovers(root) {
  for (const name of fs.readdirSync(root)) {
    const pid = Number(/^\.(?:unpacking|broken)-(\d+)-/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (error.code === 'ESRCH') fs.rmSync(path.join(root, name), { recursive: true, force: true });
    }
  }
}

/** The unpacked app's folder: reused when it checks out, else unpacked beside it and renamed into place (atomic, so racing starts are safe). */
function unpacked() {
  const root = cacheRoot();
  const dir = path.join(root, `${meta.version}-${meta.sha256.slice(0, 16)}`);
  if (verified(dir)) return dir;
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  removeLeftovers(root);
  const temp = path.join(root, `.unpacking-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(temp, { mode: 0o700 });
    untar(gunzipSync(sea.getAsset('payload')), temp);
    fs.writeFileSync(path.join(temp, MARKER), meta.sha256);
    if (!verified(temp)) throw new Error('the unpacked app does not match its file list');
    for (let attempt = 0; ; attempt += 1) {
      try {
        fs.renameSync(temp, dir);
        console.error(`${NAME}: unpacked the app into ${dir}`);
        return dir;
      } catch (error) {
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        // Another start finished first: use its copy if it checks out; else move the broken one aside and try again.
        if (verified(dir)) return dir;
        if (attempt >= 3) throw error;
        const aside = path.join(root, `.broken-${process.pid}-${randomBytes(4).toString('hex')}`);
        try {
          fs.renameSync(dir, aside);
          console.error(`${NAME}: the unpacked app in ${dir} was damaged: unpacking it again`);
          fs.rmSync(aside, { recursive: true, force: true });
        } catch (moveError) {
          if (moveError.code !== 'ENOENT') throw moveError;
        }
      }
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

function main() {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--version' || first === '-v') {
    console.log(`${NAME} ${meta.version} (payload ${meta.sha256.slice(0, 12)}, node ${process.version}, linux-${process.arch})`);
    return;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(HELP);
    return;
  }
  let entry = 'dist/host/main.mjs';
  let args = process.argv.slice(2);
  if (first !== undefined && first !== 'start') {
    const script = meta.commands[first];
    if (!script) {
      console.error(`${NAME}: unknown command ${JSON.stringify(first)}\n\n${HELP}`);
      process.exitCode = 2;
      return;
    }
    entry = `dist/host/cli/${script}.mjs`;
    args = rest;
  } else if (first === 'start') args = rest;
  let dir;
  try {
    dir = unpacked();
  } catch (error) {
    console.error(`${NAME}: cannot unpack the app into ${cacheRoot()} (${error.message}): set CLOUD_DRIVE_CACHE_DIR or XDG_CACHE_HOME to a writable folder`);
    process.exitCode = 1;
    return;
  }
  const file = path.join(dir, entry);
  // As src/main.ts does for the server: packages that choose their build by NODE_ENV load their production one.
  process.env.NODE_ENV ??= 'production';
  // The scripts' hints name the command as it was typed here (src/server/config/command-line.ts).
  process.env.CLOUD_DRIVE_EXECUTABLE ??= process.argv0;
  // The scripts read their options from process.argv after the script's path, as under `node script`.
  process.argv = [process.execPath, file, ...args];
  import(pathToFileURL(file).href).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

main();
