import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from '../logging/logger.ts';

/**
 * EVENT_LOOP_STATS_MS (benchmarks, diagnosis): every so many milliseconds, one `event loop` log line
 * with the loop's delay over that window (p50, p99, max in ms, from perf_hooks) and the process's
 * memory (RSS, V8 heap, external buffers), so a soak can read the lag measured inside the server rather than guessed from outside.
 */
export function logEventLoopStats(logger: Logger, everyMs: number): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const memory = () => {
    const m = process.memoryUsage();
    return { rss_bytes: m.rss, heap_used_bytes: m.heapUsed, heap_total_bytes: m.heapTotal, external_bytes: m.external, array_buffers_bytes: m.arrayBuffers };
  };
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const timer = setInterval(() => {
    logger.info({ loop_p50_ms: ms(delay.percentile(50)), loop_p99_ms: ms(delay.percentile(99)), loop_max_ms: ms(delay.max), ...memory() }, 'event loop');
    delay.reset();
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}
