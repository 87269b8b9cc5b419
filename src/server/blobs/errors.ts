import { AppError } from '../http/errors.ts';

/** The storage failed (unreachable, refusing, broken): the request may be tried again later. */
export function storageUnavailable(): AppError {
  return new AppError(503, 'Storage is not reachable; try again in a moment.', { code: 'storage_unavailable', headers: { 'Retry-After': '30' } });
}

export function isStorageUnavailable(error: unknown): boolean {
  return (error as AppError | null)?.code === 'storage_unavailable';
}
