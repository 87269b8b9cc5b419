/**
 * Frees the read buffers of request bodies with a young-generation collection every 16 MiB received.
 *
 * Each socket read is a new 64 KiB buffer outside V8's heap. A body streamed straight to disk makes
 * few JavaScript objects, so the young generation seldom fills and is seldom collected, and V8
 * answers the external memory piling up with full mark-compacts of the whole heap instead: on a
 * 512 MiB `POST /api/upload`, 32 of them (tens of milliseconds each over the product's 35 MB heap)
 * against 4 once a scavenge (about half a millisecond) runs every 16 MiB, and the server's CPU per
 * GiB fell from 3.4-3.9 s to 1.7-2.4 s (README, Benchmarks).
 *
 * It needs V8's `gc` function, which `npm start` exposes (`--expose-gc`); without it this does nothing.
 */
type Collect = (options: { type: 'minor' }) => void;

/** Counts bytes received and asks for a minor collection each time `every` more have arrived. */
export function reclaimer(every: number, collect: Collect | undefined): (bytes: number) => void {
  let received = 0;
  return (bytes) => {
    received += bytes;
    if (received < every) return;
    received = 0;
    collect?.({ type: 'minor' });
  };
}

/** The process's counter, shared by every body the data plane receives (uploads, tus, WebDAV). */
export const bodyBytesReceived = reclaimer(16 * 1024 * 1024, (globalThis as { gc?: Collect }).gc);
