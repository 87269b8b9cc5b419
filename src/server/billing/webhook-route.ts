import type { APIRoute } from 'astro';
import { json } from '../http/endpoint.ts';
import { errorBody, isAppError } from '../http/errors.ts';
import type { Driver } from './payment-settings.ts';
import { receiveWebhook } from './webhooks.ts';

/** The most a provider's event may weigh; theirs are a few kilobytes. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * A provider's webhook endpoint. Not `route()`: the signature covers the raw body, which must be
 * read byte for byte, and nobody signs in; the signature is the authentication.
 */
export function webhookRoute(driver: Driver): { POST: APIRoute } {
  return {
    async POST({ locals, request }) {
      const ctx = locals.ctx;
      try {
        const length = Number(request.headers.get('content-length') ?? '0');
        if (length > MAX_BODY_BYTES) return json({ message: 'The webhook body is too large.' }, 413);
        const raw = await request.text();
        if (Buffer.byteLength(raw) > MAX_BODY_BYTES) return json({ message: 'The webhook body is too large.' }, 413);
        return json(await receiveWebhook(ctx, driver, raw, request.headers));
      } catch (error) {
        if (isAppError(error)) {
          if (error.status === 400) ctx.logger.warn({ provider: driver, reason: error.message }, 'payment webhook refused');
          return json(errorBody(error), error.status);
        }
        ctx.logger.error({ err: error, provider: driver }, 'payment webhook failed');
        // 500: the provider retries later; nothing was recorded as seen.
        return json({ message: 'Server error.' }, 500);
      }
    },
  };
}
