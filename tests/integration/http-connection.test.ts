import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { useSeededServer } from '../support/seed.ts';
import { createToken } from '../support/uploads.ts';

const env = useSeededServer();

/** One request with any method through Node's client (fetch refuses TRACE, TRACK and CONNECT). */
function requestWith(method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: env.server.port, method, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Exchange {
  /** Everything the server sent on the connection. */
  text: string;
  statuses: number[];
  closed: boolean;
}

/**
 * Writes `parts` to one raw connection (respecting backpressure), then waits until the server has
 * answered `answers` times and, when `untilClosed`, closed the connection. Never a fixed sleep: a
 * connection left hanging fails the test by its timeout.
 */
function exchange(parts: (string | Buffer)[], options: { answers: number; untilClosed: boolean }): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(env.server.port, '127.0.0.1');
    let text = '';
    const statuses = () => [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    const done = (closed: boolean) => resolve({ text, statuses: statuses(), closed });
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (!options.untilClosed && statuses().length >= options.answers) {
        socket.destroy();
        done(false);
      }
    });
    socket.on('error', () => {}); // writing on after the server closed: expected here
    socket.on('close', () => done(true));
    let i = 0;
    const writeMore = () => {
      while (i < parts.length && !socket.destroyed) {
        if (!socket.write(parts[i++]!)) return void socket.once('drain', writeMore);
      }
    };
    socket.once('connect', writeMore);
  });
}

const SECOND = 'GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n';
const MiB = 1024 * 1024;

function head(lines: string[]): string {
  return `${lines.join('\r\n')}\r\n\r\n`;
}

describe('methods no route serves', () => {
  it('answers TRACE with 405, a message and Allow', async () => {
    for (const path of ['/', '/api/user', '/file/00000000-0000-0000-0000-000000000000']) {
      const res = await requestWith('TRACE', path);
      expect(res.status).toBe(405);
      expect(res.body.message).toMatch(/TRACE/);
      expect(res.headers.allow).toContain('GET');
    }
  });

  it('answers TRACK (a method Node cannot parse) with 501 and a message', async () => {
    const res = await exchange([head(['TRACK / HTTP/1.1', 'Host: x'])], { answers: 1, untilClosed: true });
    expect(res.statuses).toEqual([501]);
    expect(res.text).toMatch(/"message":"This request method is not supported\."/);
  });

  it('answers CONNECT with 405 instead of dropping the connection', async () => {
    const res = await exchange([head(['CONNECT example.com:443 HTTP/1.1', 'Host: example.com:443'])], { answers: 1, untilClosed: true });
    expect(res.statuses).toEqual([405]);
    expect(res.text).toMatch(/"message":"The CONNECT method is not supported\."/);
  });
});

describe('a refused body on a keep-alive connection', () => {
  it('still answers two ordinary requests on one connection', async () => {
    const res = await exchange([SECOND, SECOND], { answers: 2, untilClosed: false });
    expect(res.statuses).toEqual([200, 200]);
  });

  it('answers 413 at once to an oversized Content-Length and closes the connection', async () => {
    const first = head(['POST /contact HTTP/1.1', 'Host: x', `Origin: ${env.server.url}`, 'Content-Type: application/json', `Content-Length: ${13 * MiB}`]);
    const res = await exchange([first, SECOND], { answers: 1, untilClosed: true });
    expect(res.statuses[0]).toBe(413);
    expect(res.text).toMatch(/connection: close/i);
    expect(res.text).toMatch(/"message":"The request body is too large/);
    expect(res.closed).toBe(true);
  });

  it('closes the connection after a 413 for a chunked body read past the limit', async () => {
    const chunk = Buffer.alloc(MiB, 0x20);
    const parts: (string | Buffer)[] = [head(['POST /contact HTTP/1.1', 'Host: x', `Origin: ${env.server.url}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked'])];
    for (let i = 0; i < 14; i += 1) parts.push(`${chunk.length.toString(16)}\r\n`, chunk, '\r\n');
    parts.push('0\r\n\r\n', SECOND);
    const res = await exchange(parts, { answers: 1, untilClosed: true });
    expect(res.statuses[0]).toBe(413);
    expect(res.text).toMatch(/connection: close/i);
    expect(res.closed).toBe(true);
  });

  it('closes the connection when the data plane refuses an upload before reading it (401, 413)', async () => {
    const anonymous = head(['POST /api/upload HTTP/1.1', 'Host: x', `Origin: ${env.server.url}`, 'Content-Type: application/octet-stream', 'X-File-Name: a.bin', `Content-Length: ${4 * MiB}`]);
    const refused = await exchange([anonymous, SECOND], { answers: 1, untilClosed: true });
    expect(refused.statuses[0]).toBe(401);
    expect(refused.text).toMatch(/connection: close/i);

    const { client } = await registerUser(env.server.url);
    const token = await createToken(client);
    await putSetting(env.seed, 'upload_limit_bytes', 1000);
    try {
      const tooBig = head(['POST /api/upload HTTP/1.1', 'Host: x', `Authorization: Bearer ${token}`, 'Content-Type: application/octet-stream', 'X-File-Name: a.bin', `Content-Length: ${2 * MiB}`]);
      const res = await exchange([tooBig, Buffer.alloc(2 * MiB, 1), SECOND], { answers: 1, untilClosed: true });
      expect(res.statuses[0]).toBe(413);
      expect(res.text).toMatch(/connection: close/i);
      expect(res.closed).toBe(true);
    } finally {
      await putSetting(env.seed, 'upload_limit_bytes', 0);
    }
  });
});

describe('JSON answers', () => {
  it('carry their length in bytes, not chunked framing, for an answer and a refusal alike', async () => {
    // A name outside ASCII: the length counts bytes, not characters.
    const { client } = await registerUser(env.server.url, { name: 'Zoë Ångström' });
    const answer = await client.get('/api/user');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Zoë Ångström');
    const refusal = await new Client(env.server.url).get('/api/user');
    expect(refusal.status).toBe(401);
    for (const { headers, text } of [answer, refusal]) {
      expect(headers.get('transfer-encoding')).toBeNull();
      expect(Number(headers.get('content-length'))).toBe(Buffer.byteLength(text));
    }
  });
});
