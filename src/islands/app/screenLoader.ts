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

type ScreenModule<P> = { default: ComponentType<P> };
/** Screens whose script has arrived, by their loader. */
const loadedScreens = new WeakMap<() => Promise<unknown>, ScreenModule<never>>();

/** Loads a screen ahead of its first render; once it is in, lazyScreen draws it without suspending. */
export function preloadScreen<P extends object>(load: () => Promise<ScreenModule<P>>): Promise<ScreenModule<P>> {
  return loadScreen(load).then((module) => {
    loadedScreens.set(load, module as ScreenModule<never>);
    return module;
  });
}

/**
 * React.lazy over loadScreen: a screen whose script fails throws a ChunkLoadError to the nearest
 * boundary. A screen already loaded (preloadScreen) is handed to React.lazy as a thenable that
 * answers at once, which React reads without suspending: React shows a suspended boundary's content
 * no sooner than 300 ms after its fallback, which held the first list back although its script had
 * long arrived.
 */
export function lazyScreen<P extends object>(load: () => Promise<ScreenModule<P>>) {
  return lazy(() => {
    const loaded = loadedScreens.get(load) as ScreenModule<P> | undefined;
    if (!loaded) return preloadScreen(load);
    // biome-ignore lint/suspicious/noThenProperty: a thenable that answers synchronously is what lets React.lazy skip suspending
    const now: PromiseLike<ScreenModule<P>> = { then: (resolve) => (resolve ? resolve(loaded) : loaded) as never };
    return now as Promise<ScreenModule<P>>;
  });
}
