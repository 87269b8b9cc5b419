import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/env.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults: SQLite in ./data, port 3000, log mail', async () => {
    const config = await loadConfig({}, '/srv/drive');
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/srv/drive/data');
    expect(config.database).toEqual({ dialect: 'sqlite', file: path.join('/srv/drive/data', 'database.sqlite') });
    expect(config.appUrl.href).toBe('http://127.0.0.1:3000/');
    expect(config.secureCookies).toBe(false);
    expect(config.mail.driver).toBe('log');
  });

  it('selects PostgreSQL for a postgres URL and secure cookies for an https APP_URL', async () => {
    const config = await loadConfig({ DATABASE_URL: 'postgres://u@db:5432/drive', APP_URL: 'https://drive.example.com' }, '/srv');
    expect(config.database).toEqual({ dialect: 'postgres', url: 'postgres://u@db:5432/drive' });
    expect(config.secureCookies).toBe(true);
  });

  it('treats empty values as unset', async () => {
    expect((await loadConfig({ PORT: '', DATA_DIR: '' }, '/srv')).port).toBe(3000);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_URL: 'ftp://x' }, 'APP_URL'],
    [{ MAIL_DRIVER: 'pigeon' }, 'MAIL_DRIVER'],
    [{ MAIL_ENCRYPTION: 'rot13' }, 'MAIL_ENCRYPTION'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses %j naming the variable', async (env, name) => {
    await expect(loadConfig(env, '/srv')).rejects.toThrow(ConfigError);
    await expect(loadConfig(env, '/srv')).rejects.toThrow(name);
  });
});
