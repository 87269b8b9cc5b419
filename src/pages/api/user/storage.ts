import { storageUsage } from '../../../server/files/storage.ts';
import { route } from '../../../server/http/endpoint.ts';

/** Storage usage by category (images, videos, audios, documents, others) against the user's capacity. */
export const ALL = route({
  GET: ({ ctx, user }) => storageUsage(ctx, user),
});
