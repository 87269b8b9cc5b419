import type { z } from 'zod';
import { createUser } from '../auth/service.ts';
import { createSession, type Session, type User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound, validationError } from '../http/errors.ts';
import { mailerFor } from '../mail/mailer.ts';
import { sealMailPassword, toMailConfig } from '../settings/mail.ts';
import { storeLogo } from '../site/branding.ts';
import { putSettings, type MailSettings, type Settings } from '../settings/service.ts';
import type { S3Settings } from '../blobs/s3-store.ts';
import { openSecret, sealSecret, writeSecretSettings } from '../settings/secrets.ts';
import { requiredChecksPass, runChecks, type Check } from './checks.ts';
import { probeS3Storage } from './storage-check.ts';
import { switchToPostgres } from './database.ts';
import { nextStep, readProgress, saveStep, SETUP_STEPS, type SetupProgress, type SetupStep } from './progress.ts';
import type { AdminSetupInput, AppSetupInput, DatabaseInput, EnvironmentInput, PurchaseCodeInput, TestMailInput } from './schemas.ts';
import { installationState, markInstalled } from './state.ts';
import { removeSetupFiles } from './token.ts';

export interface SetupView extends SetupProgress {
  next: SetupStep;
  database: { dialect: 'sqlite' | 'postgres'; fromEnvironment: boolean };
}

export async function setupView(ctx: AppContext): Promise<SetupView> {
  const progress = await readProgress(ctx.config.dataDir);
  return { ...progress, next: nextStep(progress), database: { dialect: ctx.config.database.dialect, fromEnvironment: ctx.config.databaseSource === 'env' } };
}

/** A step may be saved once every step before it is: no skipping ahead. */
async function requireReached(ctx: AppContext, step: SetupStep): Promise<SetupProgress> {
  const progress = await readProgress(ctx.config.dataDir);
  const missing = SETUP_STEPS.slice(0, SETUP_STEPS.indexOf(step)).find((s) => !progress.completed.includes(s));
  if (missing) throw new AppError(409, `Complete the ${missing} step first.`, { code: 'setup_step_out_of_order' });
  return progress;
}

export async function completeStatusCheck(ctx: AppContext): Promise<{ checks: Check[] }> {
  const checks = await runChecks(ctx);
  if (!requiredChecksPass(checks)) throw new AppError(422, 'Some required checks fail: fix them, then check again.', { code: 'setup_checks_failed' });
  await saveStep(ctx.config.dataDir, 'status-check', {});
  return { checks };
}

export async function savePurchaseCode(ctx: AppContext, input: z.infer<typeof PurchaseCodeInput>): Promise<void> {
  await requireReached(ctx, 'purchase-code');
  await saveStep(ctx.config.dataDir, 'purchase-code', { accept_license: true, purchase_code: input.purchase_code, accepted_at: ctx.clock.now().toISOString() });
}

export async function saveDatabase(ctx: AppContext, input: z.infer<typeof DatabaseInput>): Promise<void> {
  await requireReached(ctx, 'database');
  if (input.driver === 'postgres') await switchToPostgres(ctx, input.database_url);
  // The URL holds a password and is already in DATA_DIR/database.url: the progress keeps only the choice.
  await saveStep(ctx.config.dataDir, 'database', { driver: input.driver });
}

export async function saveEnvironment(ctx: AppContext, input: z.infer<typeof EnvironmentInput>): Promise<void> {
  const progress = await requireReached(ctx, 'environment');
  // The mail password is kept only sealed too (never sent back to the form): left empty, the one saved before stays.
  const password = await mailPassword(ctx, input, progress);
  const mail = { mail_password: '', mail_password_sealed: password ? await sealSecret(ctx, SEALED_MAIL_PASSWORD, password) : '' };
  if (input.storage_driver !== 's3') {
    await saveStep(ctx.config.dataDir, 'environment', { ...input, s3_secret_access_key: '', ...mail });
    return;
  }
  // The bucket is checked before it is kept; its secret is kept only sealed (never sent back to the form).
  const secret = await s3Secret(ctx, input, progress);
  await probeS3Storage(s3SettingsOf(input, secret));
  const sealed = secret ? await sealSecret(ctx, SEALED_S3_SECRET, secret) : '';
  await saveStep(ctx.config.dataDir, 'environment', { ...input, s3_secret_access_key: '', s3_secret_sealed: sealed, ...mail });
}

const SEALED_MAIL_PASSWORD = 'setup:mail_password';

/** The mail password of the form, or (left empty, for the same server and user) the one saved with the step before. */
async function mailPassword(ctx: AppContext, input: z.infer<typeof EnvironmentInput>, progress: SetupProgress): Promise<string> {
  if (input.mail_password !== '' || input.mail_driver !== 'smtp') return input.mail_driver === 'smtp' ? input.mail_password : '';
  const saved = progress.values.environment as { mail_host?: string; mail_username?: string; mail_password_sealed?: string } | undefined;
  if (!saved?.mail_password_sealed || saved.mail_host !== input.mail_host || saved.mail_username !== input.mail_username) return '';
  return (await openSecret(ctx, SEALED_MAIL_PASSWORD, saved.mail_password_sealed)) ?? '';
}

const SEALED_S3_SECRET = 'setup:s3_secret_access_key';

/** The S3 secret of the form, or (left empty) the one saved with the step before for the same key. */
async function s3Secret(ctx: AppContext, input: z.infer<typeof EnvironmentInput>, progress: SetupProgress): Promise<string> {
  if (input.s3_access_key_id === '' && input.s3_secret_access_key === '') return '';
  if (input.s3_secret_access_key !== '') {
    if (input.s3_access_key_id === '') throw validationError({ s3_access_key_id: ['Give the S3 access key with its secret, or neither.'] });
    return input.s3_secret_access_key;
  }
  const saved = progress.values.environment as { s3_access_key_id?: string; s3_secret_sealed?: string } | undefined;
  const kept = saved?.s3_access_key_id === input.s3_access_key_id && saved.s3_secret_sealed ? await openSecret(ctx, SEALED_S3_SECRET, saved.s3_secret_sealed) : null;
  if (!kept) throw validationError({ s3_secret_access_key: ['The S3 secret key field is required with an access key.'] });
  return kept;
}

function s3SettingsOf(input: z.infer<typeof EnvironmentInput>, secret: string): S3Settings {
  return {
    endpoint: input.s3_endpoint || null,
    region: input.s3_region,
    bucket: input.s3_bucket,
    credentials: input.s3_access_key_id ? { accessKeyId: input.s3_access_key_id, secretAccessKey: secret } : null,
    forcePathStyle: input.s3_force_path_style,
    checksums: input.s3_checksums,
  };
}

/** The environment step's "Check storage": write, read back and delete a probe object with the form's S3 settings. */
export async function checkStorage(ctx: AppContext, input: z.infer<typeof EnvironmentInput>): Promise<{ message: string }> {
  const progress = await requireReached(ctx, 'environment');
  if (input.storage_driver !== 's3') throw validationError({ storage_driver: ['Choose S3 storage to check a bucket; the local disk is checked by the status step.'] });
  return probeS3Storage(s3SettingsOf(input, await s3Secret(ctx, input, progress)));
}

/** Sends a test email with the mail settings on the environment step's form; a refusal names the reason. */
export async function sendTestMail(ctx: AppContext, env: z.infer<typeof EnvironmentInput>, input: z.infer<typeof TestMailInput>): Promise<void> {
  const progress = await requireReached(ctx, 'environment');
  const mailer = await mailerFor(toMailConfig({ ...mailSettings(env), password: await mailPassword(ctx, env, progress) }), ctx.config.dataDir, ctx.logger);
  try {
    await mailer.send({ to: input.test_email, subject: 'Test email from the setup wizard', text: 'Your mail settings work: this message came through them.' });
  } catch (error) {
    throw new AppError(422, `The test email could not be sent: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown error'}`, { code: 'setup_mail_failed' });
  }
}

export async function saveAppSetup(ctx: AppContext, input: z.infer<typeof AppSetupInput>): Promise<void> {
  await requireReached(ctx, 'app-setup');
  await saveStep(ctx.config.dataDir, 'app-setup', input);
}

/** A logo for the app-setup step, stored at once; the step's form then refers to its path. */
export async function uploadSetupLogo(ctx: AppContext, file: unknown): Promise<string> {
  await requireReached(ctx, 'app-setup');
  return storeLogo(ctx, file);
}

let finishing: Promise<unknown> | null = null;

/**
 * The last step: the first admin, every saved setting, then `installation-done`. Validated before
 * anything is written; one at a time, and never once installed.
 */
export async function finishInstallation(ctx: AppContext, input: z.infer<typeof AdminSetupInput>): Promise<{ user: User; token: string; session: Session }> {
  if (finishing) throw new AppError(409, 'The installation is already finishing.');
  const run = (async () => {
    if ((await installationState(ctx)) === 'installation-done') throw notFound();
    const progress = await requireReached(ctx, 'admin-setup');
    const settings = settingsFromProgress(progress);
    // The mail password goes from the wizard's seal to the setting's (settings/mail.ts).
    const sealedMail = (progress.values.environment as { mail_password_sealed?: string } | undefined)?.mail_password_sealed;
    if (settings.mail) settings.mail = { ...settings.mail, password: await sealMailPassword(ctx, sealedMail ? ((await openSecret(ctx, SEALED_MAIL_PASSWORD, sealedMail)) ?? '') : '') };
    await putSettings(ctx, settings);
    await storeS3Secret(ctx, progress);
    const user = await createUser(ctx, { name: input.name, email: input.email, password: input.password, role: 'admin', verified: true });
    await markInstalled(ctx.db);
    await removeSetupFiles(ctx.config.dataDir);
    ctx.logger.info({ email: user.email }, 'installation done: admin account created');
    const { token, session } = await createSession(ctx, user.id, true);
    return { user, token, session };
  })();
  finishing = run;
  try {
    return await run;
  } finally {
    finishing = null;
  }
}

/** The S3 secret sealed with the environment step, stored encrypted as the setting s3_secret_access_key. */
async function storeS3Secret(ctx: AppContext, progress: SetupProgress): Promise<void> {
  const env = progress.values.environment as { storage_driver?: string; s3_secret_sealed?: string } | undefined;
  const secret = env?.storage_driver === 's3' && env.s3_secret_sealed ? await openSecret(ctx, SEALED_S3_SECRET, env.s3_secret_sealed) : null;
  await writeSecretSettings(ctx, ctx.db, { s3_secret_access_key: secret ?? '' });
}

/** What a log-driver setup without a sender address sends as (the log driver only writes mails down). */
const defaultFromAddress = 'no-reply@localhost.localdomain';

function mailSettings(env: z.infer<typeof EnvironmentInput>): MailSettings {
  return {
    driver: env.mail_driver,
    host: env.mail_host,
    port: env.mail_port,
    username: env.mail_username,
    password: env.mail_password,
    encryption: env.mail_encryption,
    from_address: env.mail_from_address || defaultFromAddress,
    from_name: env.mail_from_name,
  };
}

function settingsFromProgress(progress: SetupProgress): Partial<Settings> {
  const licence = progress.values['purchase-code'] as { purchase_code: string; accepted_at: string } | undefined;
  const env = progress.values.environment as z.infer<typeof EnvironmentInput> | undefined;
  const app = progress.values['app-setup'] as z.infer<typeof AppSetupInput> | undefined;
  if (!licence || !env || !app) throw validationError({ _: ['The saved wizard steps are incomplete: go back and save them again.'] });
  return {
    license_accepted_at: licence.accepted_at,
    purchase_code: licence.purchase_code,
    storage_driver: env.storage_driver,
    storage_s3:
      env.storage_driver === 's3'
        ? { endpoint: env.s3_endpoint, region: env.s3_region, bucket: env.s3_bucket, access_key_id: env.s3_access_key_id, force_path_style: env.s3_force_path_style, checksums: env.s3_checksums }
        : null,
    mail: mailSettings(env),
    app_name: app.app_name,
    app_description: app.app_description,
    contact_email: app.contact_email,
    registration_open: app.registration_open,
    default_storage_limit_bytes: Math.round(app.default_storage_gb * 1024 ** 3),
    subscription_type: app.subscription_type,
    ...(app.logo_horizontal ? { logo_horizontal: app.logo_horizontal } : {}),
    ...(app.logo_horizontal_dark ? { logo_horizontal_dark: app.logo_horizontal_dark } : {}),
  };
}
