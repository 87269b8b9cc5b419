import type { Redis } from 'ioredis';
import { AppError } from '../http/errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { RateLimitStore } from './store.ts';

/**
 * Counts in Redis (REDIS_URL), for installations that would rather not write a row per attempt:
 * every key under REDIS_PREFIX, `w:<key>` a fixed window (a counter expiring with the window),
 * `t:<key>` a back-off (a hash: `c` attempts, `b` closed until, in ms), expiring `forgetMs` after
 * its last counted attempt. Each step that reads and writes is one Lua script, so parallel attempts
 * on any node count as they would in the database. Redis unreachable: a 503 (never counted as passing).
 */
const ADD_TO_WINDOW = `
local c = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {c, ttl}`;

const TAKE_FROM_WINDOW = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0`;

const COUNT_ATTEMPT = `
local now = tonumber(ARGV[1])
local b = tonumber(redis.call('HGET', KEYS[1], 'b') or '0')
if b > now then return {tonumber(redis.call('HGET', KEYS[1], 'c') or '0'), b, 1} end
local c = redis.call('HINCRBY', KEYS[1], 'c', 1)
local free, base, max, forget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local wait = 0
if c >= free then wait = math.min(max, base * 2 ^ math.min(30, c - free)) end
local untilMs = 0
if wait > 0 then
  untilMs = now + wait
  redis.call('HSET', KEYS[1], 'b', string.format('%.0f', untilMs))
end
redis.call('PEXPIRE', KEYS[1], math.max(forget, wait))
return {c, untilMs, 0}`;

const REFUND = `
local c = tonumber(redis.call('HGET', KEYS[1], 'c') or '0')
if c > 0 then redis.call('HINCRBY', KEYS[1], 'c', -1) end
return 0`;

const REMEMBER = `
redis.call('HSETNX', KEYS[1], 'c', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0`;

export async function createRedisRateLimits(settings: { url: string; prefix: string }, logger: Logger): Promise<RateLimitStore> {
  const { Redis } = await import('ioredis');
  const redis: Redis = new Redis(settings.url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
  // ioredis reconnects by itself; an error between requests is only logged (a request's own fails with a 503).
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'the rate limit store (Redis) failed'));
  const w = (key: string) => `${settings.prefix}w:${key}`;
  const t = (key: string) => `${settings.prefix}t:${key}`;
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      logger.error({ err: error }, 'the rate limit store (Redis) failed');
      throw new AppError(503, 'Limits cannot be checked right now; try again in a moment.', { code: 'rate_limits_unavailable', headers: { 'Retry-After': '10' } });
    }
  };
  return {
    kind: 'redis',
    addToWindow: (key, n, windowMs, now) =>
      run(async () => {
        const [count, ttl] = (await redis.eval(ADD_TO_WINDOW, 1, w(key), n, windowMs)) as [number, number];
        return { count, resetAt: now + ttl };
      }),
    takeFromWindow: (key, n) => run(async () => void (await redis.eval(TAKE_FROM_WINDOW, 1, w(key), n))),
    clearWindow: (key) => run(async () => void (await redis.del(w(key)))),
    closedUntil: (keys, now) =>
      run(async () => {
        if (!keys.length) return 0;
        const pipeline = redis.pipeline();
        for (const key of keys) pipeline.hget(t(key), 'b');
        const answers = (await pipeline.exec()) ?? [];
        let latest = 0;
        for (const [error, value] of answers) {
          if (error) throw error;
          const until = Number(value ?? 0);
          if (until > now) latest = Math.max(latest, until);
        }
        return latest;
      }),
    countAttempt: (key, limit, now) =>
      run(async () => {
        const [count, blockedUntil, closed] = (await redis.eval(COUNT_ATTEMPT, 1, t(key), now, limit.free, limit.baseMs, limit.maxMs, limit.forgetMs)) as [number, number, number];
        return { count, blockedUntil, closed: closed === 1 };
      }),
    forget: (keys) => run(async () => void (keys.length ? await redis.del(...keys.map(t)) : 0)),
    refund: (keys) =>
      run(async () => {
        for (const key of keys) await redis.eval(REFUND, 1, t(key));
      }),
    remember: (key, forMs) => run(async () => void (await redis.eval(REMEMBER, 1, t(key), forMs))),
    remembered: (key) => run(async () => (await redis.exists(t(key))) === 1),
    async ping() {
      if (redis.status === 'wait') await redis.connect();
      await redis.ping();
    },
    async close() {
      redis.disconnect();
    },
  };
}
