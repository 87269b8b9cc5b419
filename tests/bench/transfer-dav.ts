// The WebDAV rows of `npm run bench:transfer` (group `webdav`: BENCH_ONLY=webdav runs them alone):
// a PUT of BENCH_DAV_BYTES (default 512 MiB, at most BENCH_BIG_BYTES) to /dav/, a GET of that file
// back, and BENCH_SMALL_FILES × 4 KiB PUTs over 8 connections, each request authenticated with HTTP
// Basic (the account's email and an app password), as a WebDAV client does. The references are the
// same as for the other rows, on the same bytes: the bare Node server (a stream to disk, and with
// `?fsync=1` the durability the product gives a PUT; `fs.createReadStream` for the GET, of the very
// blob file the product's PUT stored) and nginx when installed (its own WebDAV `PUT`, `sendfile`).
import { Readable } from 'node:stream';
import { patternBytes } from '../support/downloads.ts';

const MiB = 1024 * 1024;
const SMALL = 4096;

export interface Figures {
  bytes: number;
  seconds: number;
  ttfbMs?: number;
  files?: number;
  p50?: number;
  p95?: number;
}

interface Reference {
  name: string;
  url: string;
  pids: () => number[];
  uploadQuery?: string;
}

type Request = (url: string, options: { method?: string; headers?: Record<string, string | number>; body?: Readable }) => Promise<{ status: number; bytes: number; ttfbMs: number; ms: number }>;

/** What transfer.ts lends: its measuring, printing and request helpers, the product and the references. */
export interface DavBench {
  productUrl: string;
  productPids: () => number[];
  /** `Authorization: Basic …` with the account's email and an app password. */
  basic: string;
  references: Reference[];
  /** The blob key the product stored a file under (read from its database). */
  blobKeyOf: (name: string) => Promise<string>;
  bigBytes: number;
  smallFiles: number;
  connections: number;
  request: Request;
  measured: (pids: () => number[], work: () => Promise<Figures>) => Promise<Figures>;
  show: (label: string, f: Figures, references?: { name: string; figures: Figures }[]) => void;
}

export async function davRows(b: DavBench): Promise<void> {
  const size = Math.min(Number(process.env.BENCH_DAV_BYTES ?? 512 * MiB), b.bigBytes);
  const auth = { Authorization: b.basic };
  const ok = async (what: string, pending: ReturnType<Request>, statuses: number[]) => {
    const r = await pending;
    if (!statuses.includes(r.status)) throw new Error(`${what} answered ${r.status}`);
    return r;
  };
  const putOne = (url: string, headers: Record<string, string>) => async (): Promise<Figures> => {
    const t0 = performance.now();
    await ok(`PUT ${url}`, b.request(url, { method: 'PUT', headers: { ...headers, 'Content-Length': size }, body: Readable.from(patternBytes(size, 99)) }), [200, 201, 204]);
    return { bytes: size, seconds: (performance.now() - t0) / 1000 };
  };
  const getOne = (url: string, headers: Record<string, string>) => async (): Promise<Figures> => {
    const t0 = performance.now();
    const r = await ok(`GET ${url}`, b.request(url, { headers }), [200]);
    return { bytes: r.bytes, seconds: (performance.now() - t0) / 1000, ttfbMs: r.ttfbMs };
  };
  const putMany = (url: (i: number) => string, headers: Record<string, string>) => async (): Promise<Figures> => {
    let next = 0;
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: b.connections }, async () => {
        while (next < b.smallFiles) {
          const i = next++;
          const r = await ok(`PUT ${url(i)}`, b.request(url(i), { method: 'PUT', headers: { ...headers, 'Content-Length': SMALL }, body: Readable.from(patternBytes(SMALL, i)) }), [200, 201, 204]);
          latencies.push(r.ms);
        }
      }),
    );
    latencies.sort((x, y) => x - y);
    return { bytes: b.smallFiles * SMALL, seconds: (performance.now() - t0) / 1000, files: b.smallFiles, p50: latencies[Math.floor(latencies.length / 2)], p95: latencies[Math.floor(latencies.length * 0.95)] };
  };
  // PUT rows: the bare Node server also with fsync (the product flushes before answering, README).
  const bare = b.references.find((r) => r.name === 'bare Node');
  const putRefs = bare ? [...b.references, { ...bare, name: 'bare Node + fsync', uploadQuery: '?fsync=1' }] : b.references;
  const row = async (title: string, mine: () => Promise<Figures>, refs: Reference[], theirs: (r: Reference) => () => Promise<Figures>, warm = false) => {
    console.log(title);
    if (warm) await mine();
    const product = await b.measured(b.productPids, mine);
    const figures: { name: string; figures: Figures }[] = [];
    for (const r of refs) {
      if (warm) await theirs(r)();
      figures.push({ name: r.name, figures: await b.measured(r.pids, theirs(r)) });
    }
    b.show('product WebDAV', product, figures);
    for (const f of figures) b.show(f.name, f.figures);
  };

  const mb = (size / MiB).toFixed(0);
  await ok('MKCOL', b.request(`${b.productUrl}/dav/dav-small`, { method: 'MKCOL', headers: auth }), [201]);
  await row(`WebDAV PUT ${mb} MiB`, putOne(`${b.productUrl}/dav/dav-big.bin`, auth), putRefs, (r) => putOne(`${r.url}/upload/dav-big-${Date.now()}.bin${r.uploadQuery ?? ''}`, {}));
  // GET that file back; the references serve the blob file the product's PUT stored.
  const key = await b.blobKeyOf('dav-big.bin');
  await row(`WebDAV GET ${mb} MiB`, getOne(`${b.productUrl}/dav/dav-big.bin`, auth), b.references, (r) => getOne(`${r.url}/blobs/${key}`, {}), true);
  await row(
    `WebDAV PUT ${b.smallFiles} × 4 KiB, ${b.connections} connections`,
    putMany((i) => `${b.productUrl}/dav/dav-small/small-${i}.bin`, auth),
    putRefs,
    (r) => putMany((i) => `${r.url}/upload/dav-small-${i}.bin${r.uploadQuery ?? ''}`, {}),
  );
}
