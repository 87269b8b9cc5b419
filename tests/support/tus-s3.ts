import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import type { RunningServer } from './server.ts';
import { tusMetadata } from './uploads.ts';

/** Helpers of the tests of tus staged in the bucket (STORAGE_DRIVER=s3). */
export const TUS = '/api/upload/tus';
export const MiB = 1024 * 1024;

export async function until<T>(check: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i += 1) {
    const value = await check();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const tusFetch = async (url: string, method: string, headers: Record<string, string>, body?: Uint8Array) => {
  const res = await fetch(url, { method, headers: { 'Tus-Resumable': '1.0.0', ...headers }, body: body ? new Uint8Array(body) : null });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

export async function createUpload(server: RunningServer, auth: Record<string, string>, size: number, filename: string): Promise<string> {
  const created = await tusFetch(server.url + TUS, 'POST', { ...auth, 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata({ filename, filetype: 'application/octet-stream', parent_id: '', path: '' }) });
  expect(created.status, created.text).toBe(201);
  return new URL(created.headers.get('location')!, server.url).pathname;
}

export async function staged(client: S3Client, bucket: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'uploads/tus/' }));
  return (page.Contents ?? []).map((o) => o.Key!.slice('uploads/tus/'.length)).sort();
}

export async function record(client: S3Client, bucket: string, id: string): Promise<{ parts?: { size: number }[]; tail?: number; multipart?: string } | null> {
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `uploads/tus/${id}.json` }));
    return JSON.parse(await answer.Body!.transformToString());
  } catch {
    return null;
  }
}

