import { describe, expect, it } from 'vitest';
import { tokenMatches } from '../../src/server/metrics/endpoint.ts';
import { runChecks } from '../../src/server/health/readiness.ts';

describe('readiness checks', () => {
  it('is ready when every check passes', async () => {
    const result = await runChecks({ database: async () => 1, storage: async () => null });
    expect(result.ready).toBe(true);
    expect(result.failed).toBeNull();
    expect(result.checks.database?.status).toBe('ok');
    expect(result.checks.storage?.status).toBe('ok');
  });

  it('names the failed check and logs its error, without showing it', async () => {
    const logged: [string, unknown][] = [];
    const result = await runChecks(
      { database: async () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')), storage: async () => null },
      { onError: (name, error) => logged.push([name, error]) },
    );
    expect(result.ready).toBe(false);
    expect(result.failed).toBe('database');
    expect(result.checks.database).toMatchObject({ status: 'failed', reason: 'error' });
    expect(result.checks.storage?.status).toBe('ok');
    expect(JSON.stringify(result)).not.toContain('10.0.0.5');
    expect(logged.map(([name]) => name)).toEqual(['database']);
  });

  it('fails a check that does not answer within the timeout', async () => {
    const result = await runChecks({ database: async () => 1, storage: () => new Promise(() => {}) }, { timeoutMs: 20 });
    expect(result.ready).toBe(false);
    expect(result.failed).toBe('storage');
    expect(result.checks.storage).toMatchObject({ status: 'failed', reason: 'timed out' });
  });
});

describe('the metrics token', () => {
  const token = 'a-long-enough-metrics-token';
  it('accepts exactly `Bearer <token>`', () => {
    expect(tokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(tokenMatches(`bearer ${token}`, token)).toBe(true);
  });
  it('refuses anything else', () => {
    for (const header of [undefined, '', token, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, `Bearer  `, `Bearer ${token} extra`]) {
      expect(tokenMatches(header, token), String(header)).toBe(false);
    }
  });
});
