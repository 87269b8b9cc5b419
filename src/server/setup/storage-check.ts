import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { S3Settings } from '../blobs/s3-store.ts';
import { AppError } from '../http/errors.ts';

interface SdkError {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** How long the probe waits for the endpoint: a wrong address should fail in seconds, not hang the wizard. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * The wizard's "Check storage": writes a small probe object to the bucket, reads it back, deletes
 * it. A failure answers 422 saying what is wrong (the key, the bucket, the endpoint) in words.
 */
export async function probeS3Storage(settings: S3Settings): Promise<{ message: string }> {
  const { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await import('@aws-sdk/client-s3');
  const checksums = settings.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: checksums,
    responseChecksumValidation: checksums,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: PROBE_TIMEOUT_MS, requestTimeout: PROBE_TIMEOUT_MS },
  });
  const Bucket = settings.bucket;
  const Key = `health/setup-probe-${randomBytes(8).toString('hex')}`;
  const body = `cloud drive storage check ${Key}`;
  let step = 'write';
  try {
    await client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentType: 'text/plain' }));
    step = 'read';
    const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
    const chunks: Buffer[] = [];
    for await (const chunk of answer.Body as Readable) chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).toString('utf8') !== body) throw new AppError(422, `The bucket "${Bucket}" answered the probe object with other bytes than were written.`, { code: 'setup_storage_failed' });
    step = 'delete';
    await client.send(new DeleteObjectCommand({ Bucket, Key }));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(422, storageFailure(settings, step, error), { code: 'setup_storage_failed' });
  } finally {
    client.destroy();
  }
  return { message: `The bucket "${Bucket}" works: a probe object was written, read back and deleted.` };
}

function storageFailure(settings: S3Settings, step: string, error: unknown): string {
  const e = error as SdkError;
  const status = e?.$metadata?.httpStatusCode;
  const code = e?.Code ?? e?.name ?? e?.code ?? 'error';
  const where = settings.endpoint ?? `AWS S3 in ${settings.region}`;
  if (code === 'NoSuchBucket' || (status === 404 && step === 'write')) return `The bucket "${settings.bucket}" does not exist at ${where}: create it first, or check its name.`;
  if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'InvalidToken', 'ExpiredToken'].includes(code) || status === 401 || status === 403) {
    return `${where} refused the access key or its secret for the bucket "${settings.bucket}" (${code} when trying to ${step} the probe object).`;
  }
  if (status === undefined) return `The S3 endpoint ${where} could not be reached (${(e?.code ?? e?.message ?? String(error)).toString().slice(0, 200)}).`;
  return `${where} answered ${status} (${code}) when trying to ${step} a probe object in the bucket "${settings.bucket}".`;
}
