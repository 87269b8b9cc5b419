import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { Client, registerUser, uniqueEmail } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedContext } from '../support/seed.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { share, visitor } from '../support/shares.ts';

// REDIS_URL: rate limits, budgets and password back-off counted in Redis (127.0.0.1:6379 here),
// under a key prefix of this file's own, removed afterwards. Two servers with databases of their
// own (nothing shared but Redis) share a limit: it can only be Redis that counts.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `cd-test-${randomBytes(6).toString('hex')}:`;
const env = { REDIS_URL, REDIS_PREFIX: PREFIX };

let a: RunningServer;
let b: RunningServer;
let seedA: AppContext;
let redis: Redis;
beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  a = await startServer({ env });
  b = await startServer({ env });
  seedA = await seedContext(a);
});
afterAll(async () => {
  await seedA?.db.destroy();
  await b?.stop();
  await a?.stop();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const keysUnder = (part: string) => redis.keys(`${PREFIX}${part}*`);
const rows = async (table: 'rate_limits' | 'throttles') => (await seedA.db.selectFrom(table).select('key').execute()).map((r) => r.key);

describe('rate limits in Redis (REDIS_URL)', () => {
  it('backs sign-in guesses off across two servers that share nothing but Redis', async () => {
    const email = uniqueEmail('redis-limits');
    const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const node = i % 2 === 0 ? a : b;
      statuses.push((await new Client(node.url).post('/login', { email, password: `wrong guess ${i}` }, { headers: { 'X-Forwarded-For': ip } })).status);
    }
    // Five free attempts per account and address, four on each server: the sixth is refused.
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect((await keysUnder('t:signin:')).length).toBeGreaterThanOrEqual(3);
    expect(await rows('throttles')).toEqual([]);
  });

  it('counts a fixed window (password reset mails per account) across both servers', async () => {
    const email = uniqueEmail('redis-reset');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await new Client(i % 2 === 0 ? a.url : b.url).post('/forgot-password', { email })).status);
    expect(statuses.slice(0, 5).every((s) => s < 400)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const refused = await new Client(a.url).post('/forgot-password', { email });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await keysUnder('w:reset:account:')).length).toBe(1);
    expect(await rows('rate_limits')).toEqual([]);
  });

  it('throttles share-link password guesses in Redis and remembers an address that unlocked the link', async () => {
    const { client } = await registerUser(a.url);
    const folder = await mkdir(client, 'Guarded');
    const link = await share(client, folder, { password: 'open sesame' });
    const guest = visitor(a.url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await guest.post(`/api/browse/authenticate/${link.token}`, { password: `guess ${i}` })).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    const other = visitor(a.url);
    expect((await other.post(`/api/browse/authenticate/${link.token}`, { password: 'open sesame' })).status).toBe(200);
    expect((await keysUnder('t:share')).length).toBeGreaterThanOrEqual(2);
    expect(await rows('throttles')).toEqual([]);
  });

  it('reports Redis in readiness, and refuses to start when REDIS_URL cannot be reached, naming it', async () => {
    const ready = await (await fetch(`${a.url}/readyz`)).json();
    expect(ready.checks.redis.status).toBe('ok');
    await expect(startServer({ env: { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: PREFIX } })).rejects.toThrow(/REDIS_URL: Redis at redis:\/\/127\.0\.0\.1:1 could not be reached/);
  });
});

/** A Redis of the test's own on a free port (Debian's redis-server), to stop and start again. */
async function ownRedis(port: number) {
  const child = spawn('/usr/bin/redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  probe.on('error', () => undefined);
  const answers = () => probe.ping().then(
    () => true,
    () => false,
  );
  await probe.connect().catch(() => undefined);
  for (let i = 0; i < 200 && !(await answers()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  probe.disconnect();
  return {
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

describe.skipIf(!existsSync('/usr/bin/redis-server'))('rate limits when Redis goes away', () => {
  it('answers 503 (never lets an attempt pass uncounted) while Redis is down, and counts again once it is back', async () => {
    const port = await freePort();
    let own = await ownRedis(port);
    const node = await startServer({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: PREFIX } });
    try {
      const email = uniqueEmail('redis-down');
      expect((await new Client(node.url).post('/login', { email, password: 'wrong' })).status).toBe(422);
      await own.stop();
      const refused = await new Client(node.url).post('/login', { email, password: 'wrong' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('rate_limits_unavailable');
      expect((await (await fetch(`${node.url}/readyz`)).json()).checks.redis.status).toBe('failed');
      own = await ownRedis(port);
      let status = 0;
      for (let i = 0; i < 200 && status !== 422; i++) {
        status = (await new Client(node.url).post('/login', { email, password: 'wrong' })).status;
        if (status !== 422) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(422);
    } finally {
      await node.stop();
      await own.stop();
    }
  });
});
