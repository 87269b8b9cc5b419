import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { lookup } from 'mrmime';
import { assertTypeAllowed, type UploadPolicy } from './limits.ts';
import { bodyBytesReceived } from '../http/reclaim.ts';

/** How many leading bytes the type is judged by. */
export const HEAD_BYTES = 4100; // file-type's reasonableDetectionSizeInBytes

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * A file's type, judged by its bytes (magic numbers) first, then by its name; the type the client
 * declared only when neither says anything, and only when it is a well-formed MIME type. A
 * blacklisted real type is refused (422) whatever the name says.
 */
export async function judgeType(policy: UploadPolicy, head: Uint8Array, name: string, declared: string | null | undefined): Promise<string> {
  const sniffed = head.length ? await fileTypeFromBuffer(head) : undefined;
  if (sniffed) assertTypeAllowed(policy, { types: [sniffed.mime], extensions: [sniffed.ext] });
  const byName = lookup(name);
  const claimed = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return sniffed?.mime ?? byName ?? (MIME.test(claimed) ? claimed : 'application/octet-stream');
}

/** The first HEAD_BYTES of a local file (a finished tus upload). */
export async function readHead(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Passes bytes through while counting them: fails with `tooMany()` once more than `max` arrive,
 * and holds the first HEAD_BYTES back until `onHead` has judged them (so a refused type stops
 * the upload after a few KB, before it is stored).
 */
export class CountingSniffer extends Transform {
  bytes = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private judged = false;
  private readonly max: number;
  private readonly tooMany: () => Error;
  private readonly onHead: (head: Uint8Array) => Promise<void>;

  constructor(options: { max: number; tooMany: () => Error; onHead: (head: Uint8Array) => Promise<void> }) {
    super();
    this.max = options.max;
    this.tooMany = options.tooMany;
    this.onHead = options.onHead;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    bodyBytesReceived(chunk.length);
    if (this.bytes > this.max) return callback(this.tooMany());
    if (this.judged) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < HEAD_BYTES) return callback();
    this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.judged) return callback();
    this.release(callback);
  }

  private release(callback: TransformCallback): void {
    this.judged = true;
    const held = Buffer.concat(this.head);
    this.head = [];
    this.onHead(held.subarray(0, HEAD_BYTES)).then(
      () => callback(null, held),
      (error: unknown) => callback(error as Error),
    );
  }
}
