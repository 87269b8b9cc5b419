import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putSettings } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { cookieHeader, download, serverPid } from '../support/downloads.ts';
import { seedContext, seedFile, seedFolder, useSeededServer } from '../support/seed.ts';
import { startServer } from '../support/server.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

/** Polls `probe` until it answers something (not undefined): waits for a state, never for a time. */
async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function scrape(baseUrl: string, token = TOKEN): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined while it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('probes without metrics', () => {
  const env = useSeededServer();

  it('GET /healthz answers 200 ok, uncached; HEAD too, without a body', async () => {
    const res = await fetch(`${env.server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
    const head = await fetch(`${env.server.url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('GET /readyz checks the database and the storage', async () => {
    const res = await fetch(`${env.server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body.status).toBe('ready');
    expect(body.checks.database.status).toBe('ok');
    expect(body.checks.storage.status).toBe('ok');
  });

  it('refuses other methods with 405, a message and Allow', async () => {
    for (const path of ['/healthz', '/readyz']) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await fetch(`${env.server.url}${path}`, { method, headers: { Origin: env.server.url } });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect((await res.json()).message).toMatch(/GET and HEAD only/);
      }
    }
  });

  it('answers during maintenance mode, without a session, and as often as asked', async () => {
    const { client } = await registerUser(env.server.url);
    await putSettings(env.seed, { maintenance_mode: true, maintenance_retry_after_seconds: 60 });
    try {
      expect((await client.get('/api/user')).status).toBe(503);
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${env.server.url}${i % 2 ? '/healthz' : '/readyz'}`, { headers: { 'X-Forwarded-For': '10.9.9.9' } })));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    } finally {
      await putSettings(env.seed, { maintenance_mode: false });
    }
  });

  it('GET /metrics is a 404 while METRICS_TOKEN is unset, token or not', async () => {
    expect((await fetch(`${env.server.url}/metrics`)).status).toBe(404);
    const res = await fetch(`${env.server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('Not found.');
  });
});

describe('metrics with METRICS_TOKEN', () => {
  const env = {} as { server: Awaited<ReturnType<typeof startServer>>; seed: Awaited<ReturnType<typeof seedContext>> };
  beforeAll(async () => {
    env.server = await startServer({ env: { METRICS_TOKEN: TOKEN } });
    env.seed = await seedContext(env.server);
  });
  afterAll(async () => {
    await env.seed?.db.destroy();
    await env.server?.stop();
  });

  it('refuses a missing, wrong or non-bearer token with 401 and a message', async () => {
    const cases: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong-token-of-some-length' }, { Authorization: `Bearer ${TOKEN}x` }, { Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, { Authorization: TOKEN }];
    for (const headers of cases) {
      const res = await fetch(`${env.server.url}/metrics`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await res.json()).message).toMatch(/Authorization: Bearer/);
    }
    const post = await fetch(`${env.server.url}/metrics`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, Origin: env.server.url } });
    expect(post.status).toBe(405);
    expect((await post.json()).message).toMatch(/GET and HEAD only/);
  });

  it('answers Prometheus text with the expected metrics, requests counted by route pattern', async () => {
    const owner = await registerUser(env.server.url);
    const folderId = await seedFolder(env.seed, owner.user.id, 'Metrics folder');
    const file = await seedFile(env.seed, owner.user.id, { name: 'm.bin', content: 'metrics bytes' });
    // A picture recorded without its thumbnails: waiting in the thumbnail queue (the catch-up leaves files younger than 2 minutes).
    await seedFile(env.seed, owner.user.id, { name: 'waiting.png', mimetype: 'image/png', content: 'not made yet' });
    expect((await owner.client.get(`/api/browse/folders/${folderId}`)).status).toBe(200);
    const got = await download(env.server.url, `/file/${file.id}`, owner.client);
    expect(got.status).toBe(200);
    expect((await owner.client.get(`/api/no-such-route/${folderId}`)).status).toBe(404);

    const res = await fetch(`${env.server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Requests are counted when their answer has gone: wait for the three above to show.
    const text = await until(async () => {
      const t = await scrape(env.server.url);
      const counted =
        (sample(t, 'cloud_drive_http_requests_total{route="/api/browse/folders/[...id]",method="GET",status="2xx"}') ?? 0) >= 1 &&
        (sample(t, 'cloud_drive_http_requests_total{route="file download",method="GET",status="2xx"}') ?? 0) >= 1 &&
        (sample(t, 'cloud_drive_http_requests_total{route="(unmatched)",method="GET",status="4xx"}') ?? 0) >= 1 &&
        // The jobs run once at start; their first runs end soon after.
        t.includes('cloud_drive_job_runs_total{job="trash purge"}');
      return counted ? t : undefined;
    }, 'the requests and the first job runs to be counted');

    for (const name of [
      'cloud_drive_http_request_duration_seconds_bucket',
      'cloud_drive_http_received_bytes_total',
      'cloud_drive_http_sent_bytes_total',
      'cloud_drive_transfers_in_flight',
      'cloud_drive_job_failures_total',
      'cloud_drive_job_duration_seconds_bucket',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(text, name).toContain(`${name}`);
    }
    expect(sample(text, 'cloud_drive_job_failures_total{job="trash purge"}')).toBe(0);
    // Work waiting, read from the database (the same on every node).
    expect(sample(text, 'cloud_drive_job_queue_depth{queue="thumbnails"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'cloud_drive_job_queue_depth{queue="remote_imports"}')).toBe(0);
    expect(sample(text, 'cloud_drive_job_queue_depth{queue="upload_finishes"}')).toBe(0);
    expect(sample(text, 'cloud_drive_jobs_overdue')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'cloud_drive_job_consecutive_failures{job="trash purge"}')).toBe(0);
    expect((sample(text, 'cloud_drive_http_sent_bytes_total{route="file download"}') ?? 0) > 13).toBe(true);
    // Never the raw path: no item id reaches a label.
    expect(text).not.toContain(folderId);
    expect(text).not.toContain(file.id);
    if (env.server.db === 'postgres') {
      expect(sample(text, 'cloud_drive_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(text).toContain('cloud_drive_db_pool_idle_connections');
      expect(text).toContain('cloud_drive_db_pool_waiting_clients');
      expect(sample(text, 'cloud_drive_db_pool_busy_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'cloud_drive_db_pool_max_connections')).toBe(10);
    } else {
      expect(text).not.toContain('cloud_drive_db_pool_connections');
    }
  });
});

describe('readiness when the storage is down', () => {
  it('answers 503 naming the storage check while the S3 server is away, 200 once it is back; liveness stays 200', async () => {
    const server = await startServer({ storage: 's3' });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      await server.s3!.pause();
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'not_ready', message: 'The storage check failed.' });
      expect(body.checks.storage.status).toBe('failed');
      expect(body.checks.database.status).toBe('ok');
      // The log line reaches the test through a pipe, after the answer.
      await until(async () => (server.logs.some((l) => l.includes('readiness check failed') && l.includes('"check":"storage"')) ? true : undefined), 'the failure in the log');
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await server.s3!.start();
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('graceful shutdown', () => {
  it('fails /readyz at once on SIGTERM while a slow download goes on, then drains it whole', async () => {
    const server = await startServer({ env: { METRICS_TOKEN: TOKEN, SHUTDOWN_DELAY_SECONDS: '120' } });
    const seed = await seedContext(server);
    let seedOpen = true;
    let socket: net.Socket | undefined;
    try {
      const SIZE = 16 * 1024 * 1024;
      const bytes = Buffer.alloc(SIZE);
      for (let i = 0; i < SIZE; i += 4) bytes.writeUInt32LE(i, i);
      const owner = await registerUser(server.url);
      const file = await seedFile(seed, owner.user.id, { name: 'big.bin', content: bytes });
      await seed.db.destroy();
      seedOpen = false;

      // A download whose reader stalls after the first bytes: it stays in flight.
      socket = net.connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket!.once('connect', resolve).once('error', reject));
      socket.write(`GET /file/${file.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookieHeader(owner.client)}\r\nX-Forwarded-For: ${owner.client.ip}\r\nConnection: close\r\n\r\n`);
      const hash = createHash('sha256');
      let head = Buffer.alloc(0);
      let body = 0;
      let headerDone = false;
      let stall = true;
      socket.on('data', (chunk: Buffer) => {
        if (!headerDone) {
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          headerDone = true;
          expect(head.subarray(0, end).toString()).toMatch(/^HTTP\/1\.1 200/);
          chunk = head.subarray(end + 4);
        }
        body += chunk.length;
        hash.update(chunk);
        if (stall) socket!.pause();
      });
      const closed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
      await until(async () => (body > 0 ? true : undefined), 'the first bytes');
      await until(async () => (sample(await scrape(server.url), 'cloud_drive_transfers_in_flight{direction="download"}') === 1 ? true : undefined), 'the download to count as in flight');

      process.kill(serverPid(server), 'SIGTERM');
      const draining = await until(async () => {
        const res = await fetch(`${server.url}/readyz`);
        return res.status === 503 ? res : undefined;
      }, '/readyz to fail');
      expect(draining.headers.get('cache-control')).toBe('no-store');
      expect(await draining.json()).toMatchObject({ status: 'draining', message: 'This server is shutting down.' });
      // Still alive, and still serving during the delay.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(body).toBeLessThan(SIZE);

      // The second SIGTERM (stop() sends it) ends the delay: the listener closes and the download drains.
      const stopped = server.stop();
      await until(async () => (server.logs.some((l) => l.includes('shutting down: finishing in-flight requests')) ? true : undefined), 'the drain to begin');
      stall = false;
      socket.resume();
      await closed;
      await stopped;
      expect(body).toBe(SIZE);
      expect(hash.digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(server.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    } finally {
      socket?.destroy();
      if (seedOpen) await seed.db.destroy();
      await server.stop();
    }
  });
});
