import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/env.ts';

describe('METRICS_TOKEN and SHUTDOWN_DELAY_SECONDS', () => {
  it('leave metrics off and shut down at once by default', async () => {
    const config = await loadConfig({}, '/srv');
    expect(config.metricsToken).toBeNull();
    expect(config.shutdownDelayMs).toBe(0);
  });

  it('take a token of at least 16 characters and a delay in seconds', async () => {
    const config = await loadConfig({ METRICS_TOKEN: 'sixteen-chars-ok', SHUTDOWN_DELAY_SECONDS: '15' }, '/srv');
    expect(config.metricsToken).toBe('sixteen-chars-ok');
    expect(config.shutdownDelayMs).toBe(15_000);
  });

  it('refuse a short token and a delay out of range, naming the variable', async () => {
    await expect(loadConfig({ METRICS_TOKEN: 'short' }, '/srv')).rejects.toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    for (const value of ['-1', '301', 'soon', '1.5']) {
      await expect(loadConfig({ SHUTDOWN_DELAY_SECONDS: value }, '/srv'), value).rejects.toThrow(/SHUTDOWN_DELAY_SECONDS/);
    }
  });
});
