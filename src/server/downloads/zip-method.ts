import type { Readable } from 'node:stream';
import { constants, deflateRawSync } from 'node:zlib';

/**
 * Deflate level for zip entries: level 1 runs several times faster than the default 6 on one core
 * and loses a few percent of size on text; a zip is a download, where the CPU is the bottleneck.
 */
export const ZIP_DEFLATE_LEVEL = constants.Z_BEST_SPEED;

/** How much of an entry's first bytes the trial deflate looks at. */
const TRIAL_BYTES = 64 * 1024;

/**
 * Deflate only when the trial saves at least this share: random or encrypted bytes come out a
 * fraction of a percent larger, and a 1–2% saving does not pay for the CPU it costs on every byte.
 */
const MIN_SAVING = 0.03;

/**
 * Waits for the first bytes of `source` and puts them back, so the stream still starts at byte 0.
 * Null for a stream that ends with no bytes or is closed first.
 */
export function peekFirstBlock(source: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onEnd);
    };
    const onReadable = () => {
      const chunk = source.read() as Buffer | null;
      if (chunk === null) return; // 'readable' before 'end' carries no data
      done();
      source.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
    // Destroyed while waiting (the client left): nothing more will come.
    source.once('close', onEnd);
  });
}

/** Whether an entry that starts with `block` is worth deflating: a fast trial deflate of its first 64 KiB shrinks it. */
export function worthDeflating(block: Buffer | null): boolean {
  if (!block || block.length === 0) return false;
  const sample = block.subarray(0, TRIAL_BYTES);
  const deflated = deflateRawSync(sample, { level: ZIP_DEFLATE_LEVEL }).length;
  return deflated <= sample.length * (1 - MIN_SAVING);
}
