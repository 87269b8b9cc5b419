// The S3 reference for `npm run bench:transfer` (BENCH_S3=1): the AWS SDK reading and writing the
// product's bucket directly, in the bench process, on the same s3rver and the same objects the
// product serves. The floor the product on STORAGE_DRIVER=s3 is measured against.
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { patternBytes } from '../support/downloads.ts';

export interface SdkFigures {
  bytes: number;
  seconds: number;
  ttfbMs?: number;
  files?: number;
  p50?: number;
  p95?: number;
}

/** One GetObject (with an optional Range), its body drained and counted. */
async function get(client: S3Client, bucket: string, key: string, range?: string): Promise<{ bytes: number; ttfbMs: number; ms: number }> {
  const started = performance.now();
  const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }));
  let ttfb = -1;
  let bytes = 0;
  for await (const chunk of out.Body as Readable) {
    if (ttfb < 0) ttfb = performance.now() - started;
    bytes += (chunk as Buffer).length;
  }
  return { bytes, ttfbMs: ttfb < 0 ? performance.now() - started : ttfb, ms: performance.now() - started };
}

export async function sdkGet(client: S3Client, bucket: string, key: string, range?: string): Promise<SdkFigures> {
  const started = performance.now();
  const r = await get(client, bucket, key, range);
  return { bytes: r.bytes, seconds: (performance.now() - started) / 1000, ttfbMs: r.ttfbMs };
}

/** `keys` read over `connections` concurrent requests: files/s and latency. */
export async function sdkGetMany(client: S3Client, bucket: string, keys: string[], connections: number): Promise<SdkFigures> {
  const latencies: number[] = [];
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < keys.length) {
        const r = await get(client, bucket, keys[next++]!);
        latencies.push(r.ms);
        bytes += r.bytes;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { bytes, seconds: (performance.now() - started) / 1000, files: keys.length, p50: latencies[Math.floor(latencies.length * 0.5)], p95: latencies[Math.floor(latencies.length * 0.95)] };
}

/** A streamed upload of `size` pattern bytes with lib-storage's Upload (multipart above 5 MiB parts), as the product's store does. */
export async function sdkPut(client: S3Client, bucket: string, key: string, size: number): Promise<SdkFigures> {
  const started = performance.now();
  await new Upload({ client, params: { Bucket: bucket, Key: key, Body: Readable.from(patternBytes(size, 99)) } }).done();
  return { bytes: size, seconds: (performance.now() - started) / 1000 };
}
