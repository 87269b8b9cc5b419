import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, lazyScreen, loadScreen, preloadScreen } from '../../src/islands/app/screenLoader.ts';

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

function Screen({ name }: { name: string }) {
  return createElement('p', null, `screen ${name}`);
}
// renderToString does not wait: a screen that suspends leaves its fallback in the output.
const draw = (Lazy: ReturnType<typeof lazyScreen<{ name: string }>>) =>
  renderToString(createElement(Suspense, { fallback: createElement('p', null, 'spinner') }, createElement(Lazy, { name: 'files' })));

describe('drawing a lazily loaded screen', () => {
  it('suspends while the script has not arrived', () => {
    const load = () => new Promise<{ default: typeof Screen }>(() => undefined);
    expect(draw(lazyScreen(load))).toContain('spinner');
  });

  it('draws a preloaded screen at once, without a fallback', async () => {
    const load = () => Promise.resolve({ default: Screen });
    await preloadScreen(load);
    const html = draw(lazyScreen(load));
    expect(html).toContain('screen files');
    expect(html).not.toContain('spinner');
  });
});
