import type { AppContext } from '../context.ts';
import { listenToRequestUploads } from '../upload-requests/listeners.ts';

/**
 * The features' domain-event listeners (events/bus.ts), subscribed once per process before any
 * request or recovery can emit. Returns the unsubscribe of them all.
 */
export function wireListeners(ctx: AppContext): () => void {
  const offs = [listenToRequestUploads(ctx)];
  return () => {
    for (const off of offs) off();
  };
}
