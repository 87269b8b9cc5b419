import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const LITMUS = '/usr/bin/litmus';
const run = promisify(execFile);

let server: RunningServer;
beforeAll(async () => {
  if (existsSync(LITMUS)) server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/**
 * litmus (Debian's package, the WebDAV server test suite) against /dav/ with an app password:
 * every suite passes in full (basic 16/16, copymove 13/13, props 30/30, locks 41/41, http 4/4;
 * mod_dav's 104 of 104). Skipped without litmus.
 */
describe.skipIf(!existsSync(LITMUS))('litmus', () => {
  it.each(['basic', 'copymove', 'props', 'locks', 'http'])('%s passes every test', async (suite) => {
    const { client, email } = await registerUser(server.url);
    const token: string = (await client.post('/api/user/tokens', { name: 'litmus' })).body.meta.token;
    // litmus writes debug.log into its working directory.
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'cd-litmus-'));
    const { stdout } = await run(LITMUS, [`${server.url}/dav/`, email, token], { cwd, env: { ...process.env, TESTS: suite }, timeout: 60_000 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    const summary = stdout.match(/summary for `\w+': of (\d+) tests run: (\d+) passed, (\d+) failed/);
    expect(summary, stdout).not.toBeNull();
    expect(Number(summary![3]), stdout).toBe(0);
    expect(Number(summary![2])).toBe(Number(summary![1]));
  });
});
