// A round-robin proxy in a process of its own for `npm run bench:browse` (BENCH_NODES): the load
// generator and the proxy do not share one event loop. Prints its URL once it listens.
//   node tests/bench/round-robin-proxy.ts <node URL> [<node URL> ...]
import { startRoundRobin } from '../support/round-robin.ts';

const proxy = await startRoundRobin(process.argv.slice(2));
console.log(proxy.url);
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
