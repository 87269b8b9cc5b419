// The bare-Node reference for `npm run bench:transfer`: GET /blobs/<key> streams a file from the
// blob directory (fs.createReadStream, with one Range), PUT/POST /upload/<name> streams the body to
// disk; with `?fsync=1` it flushes the file (fsync before close) and its directory before answering,
// the durability the product gives an upload (README), so that cost shows apart from the rest.
// PATCH /upload/<name>?offset=N writes the body into <name> at N (a chunked upload, one chunk per
// request, as tus PATCHes are); with `fsync=1` the request carrying `final=1` flushes it.
// Nothing else: the floor that the product's data plane is measured against.
//   node tests/bench/transfer-ref.ts <port> <blob root> <upload dir>
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const [, , portArg, root, uploads] = process.argv as [string, string, string, string, string];
let uploaded = 0;

/** Flushes the upload folder (the new names in it), as the product flushes a blob's directory. */
async function syncUploads(): Promise<void> {
  const dir = await open(uploads, 'r');
  await dir.sync().finally(() => dir.close());
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const fail = () => {
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  };
  if (req.method === 'GET' && url.pathname.startsWith('/blobs/')) {
    const file = path.join(root, path.normalize(url.pathname.slice('/blobs/'.length)));
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return void res.writeHead(404).end();
    }
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (m) {
      const start = m[1] ? Number(m[1]) : size - Number(m[2]);
      const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      res.writeHead(206, { 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}` });
      return void pipeline(createReadStream(file, { start, end }), res).catch(fail);
    }
    res.writeHead(200, { 'Content-Length': size, 'Content-Type': 'application/octet-stream' });
    return void pipeline(createReadStream(file), res).catch(fail);
  }
  if ((req.method === 'PUT' || req.method === 'POST') && url.pathname.startsWith('/upload/')) {
    uploaded += 1;
    const file = path.join(uploads, `${uploaded}`);
    const durable = url.searchParams.get('fsync') === '1';
    return void pipeline(req, createWriteStream(file, { flush: durable }))
      .then(() => (durable ? syncUploads() : undefined))
      .then(() => res.writeHead(201).end())
      .catch(fail);
  }
  if (req.method === 'PATCH' && url.pathname.startsWith('/upload/')) {
    const file = path.join(uploads, `chunked-${path.basename(url.pathname)}`);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const flush = url.searchParams.get('fsync') === '1' && url.searchParams.get('final') === '1';
    return void pipeline(req, createWriteStream(file, { flags: offset === 0 ? 'w' : 'r+', start: offset, flush }))
      .then(() => (flush ? syncUploads() : undefined))
      .then(() => res.writeHead(204).end())
      .catch(fail);
  }
  res.writeHead(404).end();
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg), '127.0.0.1', () => console.log('ready'));
