import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/env.ts';

const S3 = {
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_REGION: 'eu-central-1',
  S3_BUCKET: 'drive-blobs',
  S3_ACCESS_KEY_ID: 'AKIA',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_FORCE_PATH_STYLE: '1',
  S3_CHECKSUMS: 'when_required',
};

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

  it('keeps the bot check on its setting and Google’s script unless the environment names others', async () => {
    expect((await loadConfig({}, '/srv')).botCheck).toEqual({ verifyUrl: null, scriptUrl: null });
    const set = await loadConfig({ BOT_CHECK_VERIFY_URL: 'http://127.0.0.1:9/verify', BOT_CHECK_SCRIPT_URL: 'http://127.0.0.1:9/api.js' }, '/srv');
    expect(set.botCheck).toEqual({ verifyUrl: 'http://127.0.0.1:9/verify', scriptUrl: 'http://127.0.0.1:9/api.js' });
  });

  it('takes the social sign-in providers from their real endpoints unless a base URL replaces them', async () => {
    expect((await loadConfig({}, '/srv')).oauthBaseUrls).toEqual({ google: null, github: null, facebook: null });
    const config = await loadConfig({ OAUTH_FACEBOOK_BASE_URL: 'http://127.0.0.1:9999/facebook' }, '/srv');
    expect(config.oauthBaseUrls).toEqual({ google: null, github: null, facebook: 'http://127.0.0.1:9999/facebook' });
  });

  it('keeps blobs on the local disk unless STORAGE_DRIVER=s3 names a bucket', async () => {
    expect((await loadConfig({}, '/srv')).storage).toEqual({ driver: 'local' });
    // The S3 settings mean nothing to the local driver.
    expect((await loadConfig({ S3_BUCKET: 'some-bucket' }, '/srv')).storage).toEqual({ driver: 'local' });
    expect((await loadConfig(S3, '/srv')).storage).toEqual({
      driver: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      bucket: 'drive-blobs',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
      forcePathStyle: true,
      checksums: 'when_required',
    });
    // AWS itself: no endpoint, virtual-hosted buckets, the SDK's checksums, and its credential chain.
    expect((await loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'drive-blobs' }, '/srv')).storage).toEqual({
      driver: 's3',
      endpoint: null,
      region: 'us-east-1',
      bucket: 'drive-blobs',
      credentials: null,
      forcePathStyle: false,
      checksums: 'when_supported',
    });
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
    [{ BOT_CHECK_VERIFY_URL: 'javascript:alert(1)' }, 'BOT_CHECK_VERIFY_URL'],
    [{ BOT_CHECK_SCRIPT_URL: 'not a url' }, 'BOT_CHECK_SCRIPT_URL'],
    [{ OAUTH_GOOGLE_BASE_URL: 'not a url' }, 'OAUTH_GOOGLE_BASE_URL'],
    [{ OAUTH_GITHUB_BASE_URL: 'javascript:alert(1)' }, 'OAUTH_GITHUB_BASE_URL'],
    [{ OAUTH_TIMEOUT_MS: '50' }, 'OAUTH_TIMEOUT_MS'],
    [{ OAUTH_TIMEOUT_MS: 'soon' }, 'OAUTH_TIMEOUT_MS'],
    [{ STORAGE_DRIVER: 'ftp' }, 'STORAGE_DRIVER'],
    [{ ...S3, S3_BUCKET: undefined }, 'S3_BUCKET: is required when STORAGE_DRIVER=s3'],
    [{ ...S3, S3_BUCKET: 'Has_Capitals' }, 'S3_BUCKET'],
    [{ ...S3, S3_BUCKET: 'ab' }, 'S3_BUCKET'],
    [{ ...S3, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ ...S3, S3_ENDPOINT: 'ftp://minio:9000' }, 'S3_ENDPOINT'],
    [{ ...S3, S3_REGION: 'EU West' }, 'S3_REGION'],
    [{ ...S3, S3_SECRET_ACCESS_KEY: undefined }, 'S3_SECRET_ACCESS_KEY: is required with S3_ACCESS_KEY_ID'],
    [{ ...S3, S3_ACCESS_KEY_ID: undefined }, 'S3_ACCESS_KEY_ID: is required with S3_SECRET_ACCESS_KEY'],
    [{ ...S3, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ ...S3, S3_CHECKSUMS: 'never' }, 'S3_CHECKSUMS'],
  ])('refuses %j naming the variable', async (env, name) => {
    await expect(loadConfig(env, '/srv')).rejects.toThrow(ConfigError);
    await expect(loadConfig(env, '/srv')).rejects.toThrow(name);
  });
});
