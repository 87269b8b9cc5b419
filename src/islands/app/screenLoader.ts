import { lazy, type ComponentType } from 'react';

/** SPEC §8: how long a lazily loaded screen script may take before it counts as failed. */
export const SCREEN_LOAD_TIMEOUT_MS = 120_000;

/** A screen's script that did not arrive: it timed out, or the server did not have it (a deploy replaced it). */
export class ChunkLoadError extends Error {
  readonly kind: 'timeout' | 'missing';
  readonly address: string;
  constructor(kind: 'timeout' | 'missing', address: string) {
    super(`Loading a screen failed (${kind}): ${address}`);
    this.name = 'ChunkLoadError';
    this.kind = kind;
    this.address = address;
  }
}

const pageAddress = () => (typeof location === 'undefined' ? '' : location.href);

/** The script address a failed dynamic import names (browsers put it in the message), else the page's. */
export function failedAddress(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/\S+?\.m?js)\b/.exec(message)?.[1] ?? pageAddress();
}

/** Runs a screen's import with the timeout, turning any failure into a ChunkLoadError. */
export function loadScreen<T>(load: () => Promise<T>, timeoutMs = SCREEN_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError('timeout', pageAddress())), timeoutMs);
  });
  return Promise.race([load(), timeout])
    .catch((error: unknown) => {
      throw error instanceof ChunkLoadError ? error : new ChunkLoadError('missing', failedAddress(error));
    })
    .finally(() => clearTimeout(timer));
}

/** React.lazy over loadScreen: a screen whose script fails throws a ChunkLoadError to the nearest boundary. */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => loadScreen(load));
}
