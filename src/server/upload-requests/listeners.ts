import type { AppContext } from '../context.ts';
import { notifyFilesArrived, openRequestById, recordRequestItem } from './service.ts';

/**
 * An upload made through a request (any path: plain, chunked, tus, including one finished after a
 * restart) is recorded, so its holder may change it, and its owner is told. Awaited by the upload
 * (`emitAndWait`): both are done when the upload is answered. Returns the unsubscribe.
 */
export function listenToRequestUploads(ctx: AppContext): () => void {
  return ctx.events.on('upload.finished', async ({ itemId, name, principal }) => {
    if (principal.kind !== 'request') return;
    try {
      const opened = await openRequestById(ctx, principal.id);
      if (!opened) return;
      await recordRequestItem(ctx, opened, { id: itemId });
      await notifyFilesArrived(ctx, opened, { name });
    } catch (error) {
      ctx.logger.error({ err: error, itemId, request: principal.id }, 'recording an upload of an upload request failed');
    }
  });
}
