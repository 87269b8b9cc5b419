import type { AppContext } from '../context.ts';
import { countPendingThumbnails } from '../previews/catch-up.ts';

type PromClient = typeof import('prom-client');
type Registry = import('prom-client').Registry;

/**
 * Background work waiting, read from the database at each scrape (so every node reports the same
 * cluster-wide numbers; a failed read leaves the series out of that scrape):
 * - cloud_drive_job_queue_depth{queue}: files waiting for thumbnails, imports from URL running,
 *   uploads being finished (their intents: a crash left them, or they are finishing now);
 * - cloud_drive_jobs_overdue: periodic jobs past their due time that no node has run (every node
 *   down, or a run stuck holding the lease);
 * - cloud_drive_job_consecutive_failures{job}: failed runs in a row of each job, on any node (the
 *   per-process cloud_drive_job_failures_total counts this node's).
 */
export function registerQueueMetrics(client: PromClient, register: Registry, ctx: AppContext): void {
  const failedRead = (error: unknown, metric: string) => ctx.logger.warn({ err: error, metric }, 'a metric could not be read from the database');

  new client.Gauge({
    name: 'cloud_drive_job_queue_depth',
    help: 'Background work waiting, by queue (cluster-wide, from the database).',
    labelNames: ['queue'],
    registers: [register],
    async collect() {
      try {
        const [thumbnails, imports, finishing] = await Promise.all([
          countPendingThumbnails(ctx),
          ctx.db.selectFrom('remote_uploads').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'running').executeTakeFirst(),
          ctx.db.selectFrom('pending_blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
        ]);
        this.set({ queue: 'thumbnails' }, thumbnails);
        this.set({ queue: 'remote_imports' }, Number(imports?.n ?? 0));
        this.set({ queue: 'upload_finishes' }, Number(finishing?.n ?? 0));
      } catch (error) {
        this.reset();
        failedRead(error, 'cloud_drive_job_queue_depth');
      }
    },
  });

  new client.Gauge({
    name: 'cloud_drive_jobs_overdue',
    help: 'Periodic jobs past their due time that no node has run yet.',
    registers: [register],
    async collect() {
      try {
        const now = ctx.clock.now().toISOString();
        const row = await ctx.db.selectFrom('job_runs').select((eb) => eb.fn.countAll<number>().as('n')).where('next_run_at', '<', now).executeTakeFirst();
        this.set(Number(row?.n ?? 0));
      } catch (error) {
        this.reset();
        failedRead(error, 'cloud_drive_jobs_overdue');
      }
    },
  });

  new client.Gauge({
    name: 'cloud_drive_job_consecutive_failures',
    help: 'Failed runs in a row of each periodic job, on any node.',
    labelNames: ['job'],
    registers: [register],
    async collect() {
      try {
        const rows = await ctx.db.selectFrom('job_runs').select(['name', 'consecutive_failures']).execute();
        this.reset();
        for (const row of rows) this.set({ job: row.name }, Number(row.consecutive_failures ?? 0));
      } catch (error) {
        this.reset();
        failedRead(error, 'cloud_drive_job_consecutive_failures');
      }
    },
  });
}
