import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { DB } from '../../../db/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createLocalListeners, crossesNodes, type EventBus } from './bus.ts';
import { NOTIFY_CHANNEL, notifyPayloads, parseNotifyPayload } from './notify-payload.ts';

/** Pauses before trying the lost LISTEN connection again; the last one repeats. */
const RECONNECT_MS = [100, 500, 1_000, 2_000, 5_000, 10_000];

/** Where the `application_name` of a node's listening connection starts (pg_stat_activity shows it). */
export const LISTENER_APPLICATION = 'cloud-drive events';

/**
 * The bus of a node that shares PostgreSQL with others. Every event reaches this node's listeners
 * at once, as in one process; the crossing ones (bus.ts) are also published with NOTIFY, in the
 * order emitted, through the pool. A connection of its own (not the pool's: LISTEN belongs to one
 * session) hears the other nodes and hands their events to the listeners that asked for `remote`.
 * It connects when the first such listener subscribes, so a command-line process never listens.
 * A lost connection is opened again with growing pauses; what was sent meanwhile is not heard, so
 * once it is back the `remote` listeners get `bus.resumed` (the live streams close, and browsers
 * reopen them: notifications replay from the table, listings are fetched again).
 */
export function createPostgresEventBus(options: { db: DB; url: string; logger: Logger; nodeId?: string }): EventBus {
  const { db, url } = options;
  const node = options.nodeId ?? randomUUID();
  const logger = options.logger.child({ component: 'event-bus', node });
  const applicationName = `${LISTENER_APPLICATION} ${node}`;
  const listeners = createLocalListeners();

  let sending: Promise<void> = Promise.resolve();
  const publish = (name: Parameters<EventBus['emit']>[0], payload: unknown): Promise<void> => {
    if (!crossesNodes(name)) return Promise.resolve();
    const payloads = notifyPayloads(node, name, payload as never);
    if (!payloads.length) logger.error({ event: name }, 'event too large to send to the other nodes; dropped');
    // One statement at a time keeps the order; PostgreSQL would also fold identical payloads sent in one transaction.
    for (const text of payloads) {
      sending = sending.then(() =>
        sql`select pg_notify(${NOTIFY_CHANNEL}, ${text})`
          .execute(db)
          .then(() => undefined)
          .catch((error: unknown) => logger.warn({ err: error, event: name }, 'sending an event to the other nodes failed')),
      );
    }
    return sending;
  };

  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  let connected: Promise<void> | null = null;
  let heardBefore = false;
  let markReady: () => void = () => {};
  const firstConnection = new Promise<void>((resolve) => (markReady = resolve));

  const heard = (message: pg.Notification) => {
    if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
    const event = parseNotifyPayload(message.payload);
    if (!event || !crossesNodes(event.name)) return logger.warn({ payload: message.payload.slice(0, 200) }, 'ignored a message on the event channel');
    if (event.node === node) return;
    const failed = (error: unknown) => logger.error({ err: error, event: event.name }, 'event listener failed');
    // A listener that throws must not take the LISTEN connection's event handling down with it.
    try {
      for (const result of listeners.deliver(event.name, event.payload, true)) if (result instanceof Promise) result.catch(failed);
    } catch (error) {
      failed(error);
    }
  };

  const connect = async (): Promise<void> => {
    const { default: pgModule } = await import('pg');
    // TCP keep-alive after 10 s idle: a connection a network silently dropped is noticed, not waited on for hours.
    const next = new pgModule.Client({ connectionString: url, application_name: applicationName, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (client === next) client = null;
      void next.end().catch(() => undefined);
      if (closed) return;
      logger.warn({ err: error }, 'event bus: the LISTEN connection was lost; reconnecting');
      schedule();
    };
    next.on('notification', heard);
    next.on('error', onLost);
    next.on('end', () => onLost());
    try {
      await next.connect();
      await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (closed) return void (await next.end().catch(() => undefined));
    client = next;
    logger.info({ applicationName, reconnected: heardBefore }, 'event bus: listening to the other nodes');
    attempt = 0;
    markReady();
    if (heardBefore) listeners.deliver('bus.resumed', {}, true);
    heardBefore = true;
  };

  const schedule = () => {
    const pause = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
    attempt += 1;
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), pause);
  };

  return {
    emit(name, payload) {
      listeners.deliver(name, payload);
      void publish(name, payload);
    },
    async emitAndWait(name, payload) {
      await Promise.all([...listeners.deliver(name, payload), publish(name, payload)]);
    },
    on(name, listener, listenOptions) {
      if (listenOptions?.remote && !closed) connected ??= connect();
      return listeners.on(name, listener, listenOptions);
    },
    ready: () => (connected ? firstConnection : Promise.resolve()),
    async close() {
      closed = true;
      clearTimeout(retry);
      await sending;
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
