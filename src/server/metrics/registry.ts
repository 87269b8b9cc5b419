import type { AppContext } from '../context.ts';
import { pgPoolOf } from '../../../db/index.ts';
import { registerQueueMetrics } from './queues.ts';

/**
 * The process's Prometheus metrics (GET /metrics, only when METRICS_TOKEN is set). prom-client is
 * imported here on demand: without a token it is never loaded, so it costs no memory at rest.
 */
export interface RequestSample {
  route: string;
  method: string;
  status: string;
  seconds: number;
  bytesIn: number;
  bytesOut: number;
}

export type TransferDirection = 'download' | 'upload';

export interface Metrics {
  request(sample: RequestSample): void;
  /** A download or upload began; call the answer when it ends (once). */
  transferStarted(direction: TransferDirection): () => void;
  jobRun(job: string, failed: boolean, seconds: number): void;
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

export async function createMetrics(ctx: AppContext): Promise<Metrics> {
  const client = await import('prom-client');
  const register = new client.Registry();
  // Process and Node metrics: CPU, memory, handles, GC and the event loop's lag (nodejs_eventloop_lag_*).
  client.collectDefaultMetrics({ register });

  const requests = new client.Counter({ name: 'cloud_drive_http_requests_total', help: 'HTTP requests by route pattern, method and status class.', labelNames: ['route', 'method', 'status'], registers: [register] });
  const latency = new client.Histogram({ name: 'cloud_drive_http_request_duration_seconds', help: 'Time from a request to the end of its answer, by route pattern.', labelNames: ['route'], buckets: LATENCY_BUCKETS, registers: [register] });
  const bytesIn = new client.Counter({ name: 'cloud_drive_http_received_bytes_total', help: 'Bytes received on the wire (headers and bodies), by route pattern.', labelNames: ['route'], registers: [register] });
  const bytesOut = new client.Counter({ name: 'cloud_drive_http_sent_bytes_total', help: 'Bytes sent on the wire (headers and bodies), by route pattern.', labelNames: ['route'], registers: [register] });
  const transfers = new client.Gauge({ name: 'cloud_drive_transfers_in_flight', help: 'File downloads, zips and uploads being transferred now.', labelNames: ['direction'], registers: [register] });
  for (const direction of ['download', 'upload']) transfers.set({ direction }, 0);
  const jobRuns = new client.Counter({ name: 'cloud_drive_job_runs_total', help: 'Background job runs finished by this process, by job.', labelNames: ['job'], registers: [register] });
  const jobFailures = new client.Counter({ name: 'cloud_drive_job_failures_total', help: 'Background job runs that failed, by job.', labelNames: ['job'], registers: [register] });
  const jobDuration = new client.Histogram({ name: 'cloud_drive_job_duration_seconds', help: 'How long background job runs took, by job.', labelNames: ['job'], buckets: [0.01, 0.1, 1, 10, 60, 600], registers: [register] });

  const pool = pgPoolOf(ctx.db);
  if (pool) {
    const gauge = (name: string, help: string, read: () => number) =>
      new client.Gauge({
        name,
        help,
        registers: [register],
        collect() {
          this.set(read());
        },
      });
    gauge('cloud_drive_db_pool_connections', 'PostgreSQL connections the pool holds (busy and idle).', () => pool.totalCount);
    gauge('cloud_drive_db_pool_idle_connections', 'PostgreSQL connections idle in the pool.', () => pool.idleCount);
    gauge('cloud_drive_db_pool_waiting_clients', 'Queries waiting for a free PostgreSQL connection.', () => pool.waitingCount);
    gauge('cloud_drive_db_pool_busy_connections', 'PostgreSQL connections of the pool running a query now.', () => pool.totalCount - pool.idleCount);
    gauge('cloud_drive_db_pool_max_connections', 'The most connections the pool opens.', () => pool.options.max ?? 10);
  }
  registerQueueMetrics(client, register, ctx);

  return {
    request(s) {
      requests.inc({ route: s.route, method: s.method, status: s.status });
      latency.observe({ route: s.route }, s.seconds);
      if (s.bytesIn > 0) bytesIn.inc({ route: s.route }, s.bytesIn);
      if (s.bytesOut > 0) bytesOut.inc({ route: s.route }, s.bytesOut);
    },
    transferStarted(direction) {
      transfers.inc({ direction });
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        transfers.dec({ direction });
      };
    },
    jobRun(job, failed, seconds) {
      jobRuns.inc({ job });
      jobFailures.inc({ job }, failed ? 1 : 0); // the series exists from the first run, at 0
      jobDuration.observe({ job }, seconds);
    },
    async render() {
      return { contentType: register.contentType, body: await register.metrics() };
    },
  };
}
