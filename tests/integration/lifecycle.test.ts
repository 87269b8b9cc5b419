import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('process lifecycle', () => {
  it('refuses to start with a bad variable and names it', () => {
    const res = spawnSync(process.execPath, ['src/main.ts'], { cwd: ROOT, env: { ...process.env, PORT: 'eighty', APP_URL: 'ftp://nope' }, encoding: 'utf8', timeout: 20_000 });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('PORT');
    expect(res.stderr).toContain('APP_URL');
  });

  it('finishes an in-flight request on SIGTERM, then exits cleanly', async () => {
    const server = await startServer();
    const url = new URL('/login', server.url);
    const body = JSON.stringify({ email: 'slow@example.test', password: 'slow password' });
    const response = new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Origin: server.url, 'X-Requested-With': 'XMLHttpRequest' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      // Send half the body, stop the server, then send the rest.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        process.kill(pidOf(server.logs), 'SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    expect(await response).toBe(422);
    await server.stop();
    expect(server.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  });
});

function pidOf(logs: string[]): number {
  const line = logs.find((l) => l.includes('"msg":"listening"'));
  return JSON.parse(line!).pid;
}
