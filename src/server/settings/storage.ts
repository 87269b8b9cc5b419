import type { Config } from '../config/env.ts';
import type { AppContext } from '../context.ts';
import { readSecretSetting } from './secrets.ts';
import type { StoredS3Settings } from './service.ts';

/**
 * The S3 storage the setup wizard stored (settings storage_driver 's3' and storage_s3, the secret
 * encrypted), for a process whose environment does not set STORAGE_DRIVER; null keeps the local disk.
 * Before the first migration (no settings table yet) there is nothing stored.
 */
export async function storedStorage(ctx: AppContext): Promise<Config['storage'] | null> {
  let rows: { key: string; value: string }[];
  try {
    rows = await ctx.db.selectFrom('settings').select(['key', 'value']).where('key', 'in', ['storage_driver', 'storage_s3']).execute();
  } catch {
    return null;
  }
  const value = (key: string) => {
    const row = rows.find((r) => r.key === key);
    try {
      return row ? (JSON.parse(row.value) as unknown) : null;
    } catch {
      return null;
    }
  };
  const s3 = value('storage_s3') as StoredS3Settings | null;
  if (value('storage_driver') !== 's3' || !s3?.bucket) return null;
  const secret = s3.access_key_id ? await readSecretSetting(ctx, 's3_secret_access_key') : '';
  return {
    driver: 's3',
    endpoint: s3.endpoint || null,
    region: s3.region,
    bucket: s3.bucket,
    credentials: s3.access_key_id ? { accessKeyId: s3.access_key_id, secretAccessKey: secret } : null,
    forcePathStyle: s3.force_path_style,
    checksums: s3.checksums,
  };
}
