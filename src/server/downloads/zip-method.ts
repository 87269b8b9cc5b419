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

/** Whether an entry that starts with `block` is worth deflating: a fast trial deflate of its first 64 KiB shrinks it. */
export function worthDeflating(block: Buffer | null): boolean {
  if (!block || block.length === 0) return false;
  const sample = block.subarray(0, TRIAL_BYTES);
  const deflated = deflateRawSync(sample, { level: ZIP_DEFLATE_LEVEL }).length;
  return deflated <= sample.length * (1 - MIN_SAVING);
}

/**
 * A whole small file's raw deflate when it is worth it (it saves at least MIN_SAVING), else null:
 * for a file of at most TRIAL_BYTES the trial is the deflate itself.
 */
export function deflatedIfWorth(bytes: Buffer): Buffer | null {
  if (bytes.length === 0 || bytes.length > TRIAL_BYTES) return null;
  const deflated = deflateRawSync(bytes, { level: ZIP_DEFLATE_LEVEL });
  return deflated.length <= bytes.length * (1 - MIN_SAVING) ? deflated : null;
}

/** Entries of at most this size are read whole and deflated in one call (deflatedIfWorth). */
export const WHOLE_ENTRY_BYTES = TRIAL_BYTES;
