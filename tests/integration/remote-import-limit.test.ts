import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

// Loopback addresses the SSRF guard refuses: the jobs end at once, fetching nothing.
const urls = (n: number) => Array.from({ length: n }, (_, i) => `http://127.0.0.1:9/file-${i}.bin`);
const jobs = (userId: string) => env.seed.db.selectFrom('remote_uploads').select('id').where('user_id', '=', userId).execute();

describe('import from URL: the per-user budget', () => {
  it('counts URLs per user per hour in the database and answers 429 with Retry-After past remote_upload_per_user_per_hour, making no job', async () => {
    await putSetting(env.seed, 'remote_upload_per_user_per_hour', 3);
    try {
      const { client, user } = await registerUser(env.server.url);
      expect((await client.post('/api/upload/remote', { urls: urls(2), parent_id: null })).status).toBe(202);
      const over = await client.post('/api/upload/remote', { urls: urls(2), parent_id: null });
      expect(over.status, over.text).toBe(429);
      expect(over.body.message).toMatch(/at most 3 URLs an hour/);
      expect(over.body.code).toBe('remote_upload_limit_exceeded');
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await jobs(user.id)).toHaveLength(1);
      // The refused call spent nothing: one more URL still fits, then none.
      expect((await client.post('/api/upload/remote', { urls: urls(1), parent_id: null })).status).toBe(202);
      expect((await client.post('/api/upload/remote', { urls: urls(1), parent_id: null })).status).toBe(429);
      expect(await jobs(user.id)).toHaveLength(2);
      // Bad input is still a 422, not a 429 and not counted.
      expect((await client.post('/api/upload/remote', { urls: ['ftp://x'], parent_id: null })).status).toBe(422);

      const other = await registerUser(env.server.url);
      expect((await other.client.post('/api/upload/remote', { urls: urls(3), parent_id: null })).status).toBe(202);
    } finally {
      await putSetting(env.seed, 'remote_upload_per_user_per_hour', 100);
    }
  });
});
