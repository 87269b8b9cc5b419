import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/**
 * Every route under src/pages/api/admin, found on disk so a new one is covered the day it lands:
 * each method it serves refuses a signed-out client (401), a wrong bearer token (401) and a user
 * who is not an admin (403), and changes nothing.
 */
const API_DIR = path.resolve(import.meta.dirname, '../../src/pages/api/admin');

function adminRoutes(dir = API_DIR, prefix = '/api/admin'): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const segment = entry.name.replace(/\.ts$/, '').replace(/^\[\.\.\..+\]$/, 'any/thing').replace(/^\[.+\]$/, '00000000-0000-4000-8000-000000000000');
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...adminRoutes(full, `${prefix}/${segment}`));
    else if (entry.name.endsWith('.ts')) {
      const source = readFileSync(full, 'utf8');
      const methods = [...new Set([...source.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s*:/g)].map((m) => m[1]!))];
      out.push({ path: segment === 'index' ? prefix : `${prefix}/${segment}`, methods });
    }
  }
  return out;
}

const ROUTES = adminRoutes().flatMap((route) => route.methods.map((method) => ({ method, path: route.path })));

let server: RunningServer;
let member: Client;
beforeAll(async () => {
  server = await startServer();
  member = (await registerUser(server.url)).client;
});
afterAll(async () => {
  await server?.stop();
});

describe('every admin API route', () => {
  it('is found on disk (the dashboard and the audit log at least)', () => {
    expect(ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /api/admin/dashboard', 'GET /api/admin/audit']));
  });

  it.each(ROUTES)('$method $path refuses a signed-out client, a wrong token and a non-admin', async ({ method, path: url }) => {
    const json = method === 'GET' ? undefined : {};
    const anonymous = await new Client(server.url).request(url, { method, json });
    expect(anonymous.status, 'signed out').toBe(401);
    const wrongToken = await new Client(server.url).request(url, { method, json, bearer: 'cd_notarealtoken', origin: null, xrw: false });
    expect(wrongToken.status, 'wrong token').toBe(401);
    const refused = await member.request(url, { method, json });
    expect(refused.status, 'not an admin').toBe(403);
    expect(refused.body.message).toMatch(/administrator/i);
  });
});
