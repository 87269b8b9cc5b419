import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client, type S3Settings } from '../../src/server/blobs/s3-store.ts';
import { freePort } from './server.ts';

/** s3rver's one account (lib/models/account.js): any other key is refused with InvalidAccessKeyId. */
export const S3_KEY = 'S3RVER';
export const S3_BUCKET = 'cloud-drive-test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'node_modules/s3rver/bin/s3rver.js');

export interface RunningS3 {
  endpoint: string;
  bucket: string;
  /** The settings of a store on this server (s3rver needs path style and the required checksums only). */
  settings: S3Settings;
  /** The environment of a product server on this bucket. */
  env: Record<string, string>;
  /** Kills the server (SIGKILL: transfers under way are cut off) until `start`; the objects stay. */
  pause(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its objects. */
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver 3, its own process) on a free loopback port, with the bucket
 * made through the S3 API and the objects in a temporary folder. s3rver makes its listing
 * continuation tokens with DES, which Node's OpenSSL 3 has only in its legacy provider.
 */
export async function startS3(): Promise<RunningS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'cd-s3-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    if (child) return;
    const next = spawn(process.execPath, ['--openssl-legacy-provider', CLI, '-d', directory, '-a', '127.0.0.1', '-p', String(port), '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    const collect = (line: string) => output.push(line);
    createInterface({ input: next.stderr! }).on('line', collect);
    const lines = createInterface({ input: next.stdout! });
    lines.on('line', collect);
    const listening = new Promise<void>((resolve) => lines.on('line', (line) => line.includes('S3rver listening') && resolve()));
    const exited = once(next, 'exit').then(([code]) => {
      throw new Error(`s3rver exited with ${code}:\n${output.join('\n')}`);
    });
    await Promise.race([listening, exited]);
    exited.catch(() => undefined);
    child = next;
  };
  const pause = async () => {
    const current = child;
    child = null;
    if (!current || current.exitCode !== null) return;
    const exited = once(current, 'exit');
    current.kill('SIGKILL');
    await exited;
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = { endpoint, region: 'us-east-1', bucket: S3_BUCKET, credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY }, forcePathStyle: true, checksums: 'when_required' };
  const client = await createS3Client(settings);
  await client.send(new CreateBucketCommand({ Bucket: S3_BUCKET }));
  client.destroy();
  return {
    endpoint,
    bucket: S3_BUCKET,
    settings,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET,
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      S3_CHECKSUMS: 'when_required',
    },
    pause,
    start,
    async stop() {
      await pause();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
