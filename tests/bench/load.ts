// Shared by the benchmarks: a bounded closed-loop load of one URL, and latency figures.
export const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

export interface Result {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

export function summarise(latencies: number[], seconds: number): Result {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, rps: latencies.length / seconds, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** CONCURRENCY connections request `url` back to back for DURATION_MS; any non-200 stops the run. */
export async function load(url: string, headers: Record<string, string>, durationMs = DURATION_MS, connections = CONCURRENCY): Promise<Result> {
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return summarise(latencies, (performance.now() - started) / 1000);
}

export const fmt = (r: Result) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p95 ${r.p95.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   (${r.requests} requests)`;
