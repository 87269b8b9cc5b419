import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../scripts/node-flags.ts';
import { reclaimer } from '../../src/server/http/reclaim.ts';

describe('freeing request bodies read buffers (http/reclaim.ts)', () => {
  it('asks for one minor collection each time the threshold of bytes has arrived', () => {
    const calls: unknown[] = [];
    const received = reclaimer(1000, (options) => calls.push(options));
    for (let i = 0; i < 9; i += 1) received(100);
    expect(calls).toEqual([]);
    received(100);
    expect(calls).toEqual([{ type: 'minor' }]);
    // The count starts again after a collection: 2,500 more bytes make two more.
    received(1500);
    received(1000);
    expect(calls).toHaveLength(3);
  });

  it('does nothing without V8s gc function', () => {
    const received = reclaimer(10, undefined);
    expect(() => received(1_000_000)).not.toThrow();
  });

  it('runs with the gc function exposed wherever the server is started from npm start', () => {
    // The test servers, the benchmarks and the single executable take their flags from npm start.
    expect(serverNodeFlags()).toContain('--expose-gc');
  });
});
