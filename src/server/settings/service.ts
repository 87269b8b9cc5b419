import type { Kysely } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { Database } from '../../../db/index.ts';
import type { AppContext } from '../context.ts';

/** Runtime settings an admin changes later. Stored as JSON text in the settings table; defaults live here. */
export const SETTING_DEFAULTS = {
  app_name: 'Cloud Drive',
  app_description: 'Your files, in your cloud.',
  locale: 'en',
  default_theme_mode: 'system' as 'light' | 'dark' | 'system',
  default_emoji: 'twemoji' as 'twemoji' | 'applemoji',
  registration_open: true,
  email_verification_required: false,
  subscription_type: 'none' as 'none' | 'fixed' | 'metered',
  default_storage_limit_bytes: 5 * 1024 ** 3,
  /** Days an item stays in the trash before the purge job removes it for good; 0 keeps it forever. */
  trash_retention_days: 30,
  upload_limit_bytes: 0,
  /** Distinct member and invited addresses one owner may have across their team folders (SPEC §5; not for subscription types metered or none). */
  max_team_members: 10,
  /** Days a team folder invitation stays open. */
  team_invitation_expiry_days: 14,
  chunk_size_bytes: 8 * 1024 ** 2,
  /** Unfinished tus uploads one owner may hold at once (their own, their share links' and upload requests'); 0 = no cap. */
  max_open_uploads: 20,
  /** An unfinished tus upload that received nothing for this long is removed and its reserved quota freed (UPLOAD_EXPIRY_SECONDS stays the hard maximum). */
  upload_abandon_seconds: 3 * 60 * 60,
  /** A plain upload that sends nothing for this long is cut off; a temporary upload file untouched this long, with no live request writing it, is swept. */
  upload_idle_seconds: 10 * 60,
  /** Refused upload types: extensions (`exe`, `.php`) or MIME types (`application/x-msdownload`, `video/*`). */
  mimetypes_blacklist: [] as string[],
  /**
   * `host:port` pairs import-from-URL may fetch even though they resolve to a private, loopback or
   * link-local address (the SSRF guard refuses those otherwise). Empty in production; tests use it.
   */
  remote_upload_allowlist: [] as string[],
  /** URLs import-from-URL fetches for one user an hour (each is a request the server makes for them); over it, 429. */
  remote_upload_per_user_per_hour: 100,
  allowed_recaptcha: false,
  recaptcha_client_id: '',
  broadcasting: { driver: 'none' as string },
  stripe_public_key: '',
  paystack_public_key: '',
  paypal_client_id: '',
  /** Payment providers switched on in /admin/payments (billing/payment-settings.ts); their secrets are encrypted settings. */
  payment_drivers: { stripe: false, paystack: false, paypal: false },
  /** The PayPal webhook's id, sent with PayPal's signature verification call. */
  paypal_webhook_id: '',
  stripe_secret_key: '',
  stripe_webhook_secret: '',
  paystack_secret_key: '',
  paypal_client_secret: '',
  /** The company's billing details printed on invoices (SPEC §2 /admin/payments/billings). */
  billing_details: { name: '', address: '', city: '', postal_code: '', country: '', vat_id: '', email: '', phone: '' },
  social_login: { facebook: false, google: false, github: false },
  /** The social sign-in apps' client ids; their secrets are the encrypted social_*_client_secret settings (secrets.ts). */
  social_login_client_ids: { facebook: '', google: '', github: '' },
  social_google_client_secret: '',
  social_facebook_client_secret: '',
  social_github_client_secret: '',
  /** Ads on the public pages (src/server/site/ads.ts): a ca-pub- publisher id and optional 10-digit slots; the script loads after cookie consent. */
  adsense: { enabled: false, publisher_id: '', header_slot: '', footer_slot: '' },
  /** Logo images (a path on this site or an https:// address); empty shows the built-in mark and the app name. */
  logo_horizontal: '',
  logo_horizontal_dark: '',
  /** The site icon: a `/branding/….png` path (an upload, made 64×64), served at /favicon.ico too; empty keeps the built-in icon. */
  favicon: '',
  /** Where the contact form's messages go; empty means the first admin's address. */
  contact_email: '',
  /** The homepage (SPEC §2 Homepage), edited in the admin area later; empty uses the built-in texts in the visitor's language. */
  home_title: '',
  home_subtitle: '',
  /** Feature cards: icon is one of upload, share, team, shield, folder, file, image. Empty: the built-in four. */
  home_features: [] as { icon: string; title: string; text: string }[],
  /** The homepage's sections below the headline: the app preview beside it, the feature cards, the closing call to action. */
  home_show_preview: true,
  home_show_features: true,
  home_show_cta: true,
  /** The pricing table of the active plans (billing/plans.ts listPublicPlans); shown only when there are some, so on by default. */
  home_show_pricing: true,
  /** The cookie notice in the signed-in app (dismissed once per browser). */
  cookie_notice: true,
  /** A `#rrggbb` colour replacing the brand colour of the token sheet; empty keeps the default. */
  brand_color: '',
  /** Maintenance mode: every non-admin route answers 503 with the temporary-unavailable page. */
  maintenance_mode: false,
  maintenance_retry_after_seconds: 3600,
  /** Secret for the score-based bot check (verified server-side); `allowed_recaptcha` switches it on. Stored encrypted: read it with readSecretSetting (secrets.ts). */
  recaptcha_secret: '',
  recaptcha_verify_url: 'https://www.google.com/recaptcha/api/siteverify',
  recaptcha_min_score: 0.5,
  /** When the bot check's provider last refused the instance's secret (every guarded form refused then); null once it accepts it again. */
  recaptcha_secret_refused_at: null as string | null,
  /** Outgoing mail limits (src/server/mail/outgoing.ts): addresses per share or request call, mails a user may send an hour, all users together. */
  mail_max_recipients: 5,
  mail_per_user_per_hour: 50,
  mail_per_instance_per_hour: 1000,
  /** The product's own mails (reset, verification, contact form), counted apart from users' mail. */
  mail_system_per_recipient_per_hour: 10,
  mail_system_per_instance_per_hour: 1000,
  /** Mail driver chosen in the setup wizard; null uses the MAIL_* environment. */
  mail: null as MailSettings | null,
  /** Where the installation's blobs are (the wizard's choice, switched by `npm run storage:migrate`); STORAGE_DRIVER decides what the server uses. */
  storage_driver: 'local' as 'local' | 's3',
  /** On S3: file downloads answer 302 to a presigned GET URL of the bucket (valid 5 minutes) instead of streaming through the app. */
  s3_presigned_downloads: false,
  /** The S3 bucket the setup wizard checked (storage_driver s3), used when STORAGE_DRIVER is not set; its secret is s3_secret_access_key (encrypted, secrets.ts). */
  storage_s3: null as StoredS3Settings | null,
  /** Stored encrypted (secrets.ts): read it with readSecretSetting. */
  s3_secret_access_key: '',
  license_accepted_at: '',
  purchase_code: '',
};

export interface StoredS3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  access_key_id: string;
  force_path_style: boolean;
  checksums: 'when_supported' | 'when_required';
}

export interface MailSettings {
  driver: 'smtp' | 'mailgun' | 'ses' | 'postmark' | 'log';
  host: string;
  port: number;
  username: string;
  password: string;
  encryption: 'tls' | 'ssl' | 'none';
  from_address: string;
  from_name: string;
}

export type Settings = typeof SETTING_DEFAULTS;
export type SettingKey = keyof Settings;

/** Read on every request (compiled once: db/compiled-once.ts). */
const allSettings = compiledOnce((db) => db.selectFrom('settings').select(['key', 'value']));

export async function getSettings(ctx: AppContext): Promise<Settings> {
  const { rows } = await allSettings(ctx.db);
  const settings: Record<string, unknown> = { ...SETTING_DEFAULTS };
  for (const row of rows) {
    if (row.key in SETTING_DEFAULTS) {
      try {
        settings[row.key] = JSON.parse(row.value);
      } catch {
        ctx.logger.warn({ key: row.key }, 'ignoring unreadable setting');
      }
    }
  }
  return settings as Settings;
}

/** Writes several settings at once, atomically. */
export async function putSettings(ctx: AppContext, values: Partial<Settings>): Promise<void> {
  await ctx.db.transaction().execute((trx) => writeSettings(trx, values));
}

/** Writes settings with the given connection: pass a transaction to commit them with other changes (an audit record). */
export async function writeSettings(db: Kysely<Database>, values: Partial<Settings>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const json = JSON.stringify(value);
    await db.insertInto('settings').values({ key, value: json }).onConflict((oc) => oc.column('key').doUpdateSet({ value: json })).execute();
  }
}

/** Writes one setting; pass a transaction as `db` to make it part of a larger change. */
export async function putSetting<K extends SettingKey>(ctx: AppContext, key: K, value: Settings[K], db: Kysely<Database> = ctx.db): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
    .execute();
}
