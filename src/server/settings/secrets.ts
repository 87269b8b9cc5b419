import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { AppContext } from '../context.ts';

/**
 * Secrets kept in the settings table (client secrets, the bot check's secret) are stored encrypted:
 * AES-256-GCM under a key derived (HKDF-SHA256) from the instance secret, with the setting's name
 * as associated data, so a ciphertext copied into another setting does not decrypt. The instance
 * secret is APP_KEY, else DATA_DIR/instance.key, made on first use. A database dump alone (the
 * PostgreSQL case, or a copy of the SQLite file) then does not reveal them.
 *
 * The admin API never answers them: it says only whether one is set. Code that needs the plain
 * value calls `readSecretSetting`.
 */
export const SECRET_SETTINGS = ['recaptcha_secret', 'social_google_client_secret', 'social_facebook_client_secret', 'social_github_client_secret', 'stripe_secret_key', 'stripe_webhook_secret', 'paystack_secret_key', 'paypal_client_secret', 's3_secret_access_key'] as const;
export type SecretSetting = (typeof SECRET_SETTINGS)[number];

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const instanceKeyFile = (dataDir: string) => path.join(dataDir, 'instance.key');

// The derived key per instance secret; the secret itself never changes while the process runs.
const derived = new Map<string, Promise<Buffer>>();

function settingsKey(ctx: AppContext): Promise<Buffer> {
  const id = ctx.config.appKey ? `env:${ctx.config.appKey}` : `file:${ctx.config.dataDir}`;
  let key = derived.get(id);
  if (!key) {
    key = (ctx.config.appKey ? Promise.resolve(Buffer.from(ctx.config.appKey, 'utf8')) : readOrCreateKeyFile(ctx.config.dataDir)).then((ikm) =>
      Buffer.from(hkdfSync('sha256', ikm, 'cloud-drive', 'settings-secrets:v1', 32)),
    );
    key.catch(() => derived.delete(id));
    derived.set(id, key);
  }
  return key;
}

/**
 * Reads DATA_DIR/instance.key, or makes it: written whole to a temporary file, then linked into
 * place, which fails if another process got there first (their key is then read), so two
 * processes starting together agree on one key and nobody reads a half-written file.
 */
async function readOrCreateKeyFile(dataDir: string): Promise<Buffer> {
  const file = instanceKeyFile(dataDir);
  const read = async () => Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temp, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
  try {
    await link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temp, { force: true });
  }
  return read();
}

export const isEncrypted = (stored: string) => stored.startsWith(PREFIX);

export async function encryptSecret(ctx: AppContext, setting: SecretSetting, plain: string): Promise<string> {
  return sealSecret(ctx, `setting:${setting}`, plain);
}

/** The plain value, or null when it does not decrypt (another instance secret, a damaged value). */
export async function decryptSecret(ctx: AppContext, setting: SecretSetting, stored: string): Promise<string | null> {
  return openSecret(ctx, `setting:${setting}`, stored);
}

/**
 * The same encryption for secrets kept outside the settings table (an OpenID Connect issuer's
 * client secret in its own row). `purpose` is the associated data: name the secret and its owner
 * (`oidc-issuer:acme:client_secret`), so a value copied to another row does not decrypt.
 */
export async function sealSecret(ctx: AppContext, purpose: string, plain: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await settingsKey(ctx), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plain value sealed for `purpose`, or null when it does not decrypt. */
export async function openSecret(ctx: AppContext, purpose: string, stored: string): Promise<string | null> {
  if (!isEncrypted(stored)) return null;
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await settingsKey(ctx), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The stored (JSON-decoded) values of the secret settings that have a row. */
async function storedSecrets(db: Kysely<Database>, settings: readonly SecretSetting[]): Promise<Map<SecretSetting, string>> {
  // `in ()` is a syntax error in PostgreSQL: every secret given at once leaves nothing to read.
  if (settings.length === 0) return new Map();
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', [...settings]).execute();
  const out = new Map<SecretSetting, string>();
  for (const row of rows) {
    try {
      const value: unknown = JSON.parse(row.value);
      if (typeof value === 'string') out.set(row.key as SecretSetting, value);
    } catch {
      /* unreadable: as if unset */
    }
  }
  return out;
}

/** Which of these secrets hold a value, without decrypting anything. */
export async function secretsSet(db: Kysely<Database>, settings: readonly SecretSetting[]): Promise<Record<SecretSetting, boolean>> {
  const stored = await storedSecrets(db, settings);
  return Object.fromEntries(settings.map((s) => [s, (stored.get(s) ?? '') !== ''])) as Record<SecretSetting, boolean>;
}

/**
 * The plain value of a secret setting ('' when unset). A value stored in plain text before
 * encryption existed (or written by a tool that does not encrypt) is encrypted in place on this
 * first read; the write is conditional on the row still holding that value, so a concurrent change
 * by an admin is never overwritten with the old secret.
 */
export async function readSecretSetting(ctx: AppContext, setting: SecretSetting): Promise<string> {
  const stored = (await storedSecrets(ctx.db, [setting])).get(setting) ?? '';
  if (stored === '') return '';
  if (isEncrypted(stored)) {
    const plain = await decryptSecret(ctx, setting, stored);
    if (plain === null) {
      ctx.logger.error({ setting }, 'a stored secret could not be decrypted: the instance secret (APP_KEY or DATA_DIR/instance.key) changed; enter the secret again in the admin area');
      return '';
    }
    return plain;
  }
  await ctx.db
    .updateTable('settings')
    .set({ value: JSON.stringify(await encryptSecret(ctx, setting, stored)) })
    .where('key', '=', setting)
    .where('value', '=', JSON.stringify(stored))
    .execute();
  return stored;
}

/**
 * Writes secrets inside the caller's transaction: a string is encrypted and stored, '' or null
 * clears it, undefined leaves it as it is (but a plain-text one still gets encrypted).
 */
export async function writeSecretSettings(ctx: AppContext, trx: Kysely<Database>, values: Partial<Record<SecretSetting, string | null | undefined>>, keep: readonly SecretSetting[] = []): Promise<void> {
  const put = async (setting: SecretSetting, stored: string) => {
    const json = JSON.stringify(stored);
    await trx.insertInto('settings').values({ key: setting, value: json }).onConflict((oc) => oc.column('key').doUpdateSet({ value: json })).execute();
  };
  for (const [setting, value] of Object.entries(values) as [SecretSetting, string | null | undefined][]) {
    if (value === undefined) continue;
    await put(setting, value === null || value === '' ? '' : await encryptSecret(ctx, setting, value));
  }
  const untouched = keep.filter((s) => values[s] === undefined);
  for (const [setting, stored] of await storedSecrets(trx, untouched)) {
    if (stored !== '' && !isEncrypted(stored)) await put(setting, await encryptSecret(ctx, setting, stored));
  }
}
