import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadScreen } from '../../src/islands/app/screenLoader.ts';

describe('loading a screen script', () => {
  afterEach(() => vi.useRealTimers());

  it('passes a loaded module through', async () => {
    await expect(loadScreen(() => Promise.resolve({ default: 'screen' }))).resolves.toEqual({ default: 'screen' });
  });

  it('names a missing script and its address', async () => {
    const failed = loadScreen(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: https://drive.example/_astro/ProfileScreen.Ab12.js')));
    await expect(failed).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(failed).rejects.toMatchObject({ kind: 'missing', address: 'https://drive.example/_astro/ProfileScreen.Ab12.js' });
  });

  it('gives up after the timeout as a timeout', async () => {
    vi.useFakeTimers();
    const slow = loadScreen(() => new Promise(() => undefined), 120_000);
    const caught = slow.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await caught).toMatchObject({ kind: 'timeout' });
  });
});
