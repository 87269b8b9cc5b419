/**
 * Domain errors carry their HTTP status; one place (endpoint.ts) turns them into responses.
 * Checked by shape, not instanceof, because the process entry and the Astro bundle each hold a copy.
 */
export class AppError extends Error {
  readonly isAppError = true;
  readonly status: number;
  readonly errors: Record<string, string[]> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** A stable key the client may translate (e.g. the spec's `create_folder_temporarily_disabled`). */
  readonly code: string | undefined;
  /** Fields the answer carries besides these (a chunked upload's offset on a 409). */
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, message: string, opts: { errors?: Record<string, string[]>; headers?: Record<string, string>; code?: string; details?: Record<string, unknown> } = {}) {
    super(message);
    this.status = status;
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.code = opts.code;
    this.details = opts.details;
  }
}

/** The body of every error answer, on both planes: `{ message, code?, errors?, ...details }`. */
export interface ErrorBody {
  message: string;
  code?: string;
  errors?: Record<string, string[]>;
  [detail: string]: unknown;
}

export function errorBody(error: AppError): ErrorBody {
  return {
    ...(error.details ?? {}),
    message: error.message,
    ...(error.code ? { code: error.code } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

export function isAppError(error: unknown): error is AppError {
  return typeof error === 'object' && error !== null && (error as { isAppError?: unknown }).isAppError === true;
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthenticated = (message = 'Unauthenticated.') => new AppError(401, message);
export const forbidden = (message = 'This action is unauthorized.') => new AppError(403, message);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const payloadTooLarge = (message: string) => new AppError(413, message);
export const unsupportedMediaType = (message: string) => new AppError(415, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** 422 with Laravel-style field errors, the shape the spec's client reads. */
export function validationError(errors: Record<string, string[]>, message?: string): AppError {
  const first = Object.values(errors)[0]?.[0];
  return new AppError(422, message ?? first ?? 'The given data was invalid.', { errors });
}
