/**
 * The load generator, in a process of its own (never the server's): autocannon against
 * one URL, POSTing the same JSON body with the `x-api-key` rotating over the accounts'
 * keys (consecutive requests, whichever connection sends them, use consecutive keys).
 *   node dist/scripts/bench/load-generator.js <spec.json> <result.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { machineBusySeconds } from './proc-stats';
import { openCpuWindow } from './cpu-window';

export interface LoadSpec {
  url: string;
  connections: number;
  /** Run for this long… */
  durationSeconds?: number;
  /** …or until this many responses (each connection sends one at a time). */
  amount?: number;
  timeoutSeconds: number;
  apiKeys: string[];
  body: string;
  /** Process trees (name → root pid) whose CPU to measure over exactly the run. */
  cpuWatch?: Record<string, number>;
}

export interface LoadResult {
  completed: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** 2xx responses per second of the run. */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  seconds: number;
  /** When autocannon started (epoch ms). */
  startedAtMs: number;
  /** CPU seconds the load generator itself used during the run. */
  cpuSeconds: number;
  /** Cores used during the run by each watched tree, and by the whole `machine`. */
  cores: Record<string, number>;
}

async function main(specFile: string, resultFile: string): Promise<void> {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as LoadSpec;
  let next = 0;
  const watched = Object.entries(spec.cpuWatch ?? {}).map(([name, pid]) => ({ name, window: openCpuWindow(pid) }));
  const machineBefore = machineBusySeconds();
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount === undefined ? { duration: spec.durationSeconds ?? 10 } : { amount: spec.amount }),
    timeout: spec.timeoutSeconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: spec.body,
    requests: [
      {
        setupRequest: (request) => {
          const apiKey = spec.apiKeys[next++ % spec.apiKeys.length] ?? '';
          return { ...request, headers: { ...request.headers, 'x-api-key': apiKey } };
        },
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  const machine = machineBusySeconds() - machineBefore;
  const used = watched.map(({ name, window }) => [name, window.close()] as const);
  const seconds = (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000;
  const summary: LoadResult = {
    completed: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0])),
    okPerSecond: seconds > 0 ? result['2xx'] / seconds : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    seconds,
    startedAtMs: new Date(result.start).getTime(),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    cores: Object.fromEntries([...used, ['machine', machine] as const].map(([name, cpuSeconds]) => [name, cpuSeconds / seconds])),
  };
  writeFileSync(resultFile, JSON.stringify(summary));
}

const [specFile, resultFile] = process.argv.slice(2);
if (!specFile || !resultFile) {
  process.stderr.write('usage: load-generator.js <spec.json> <result.json>\n');
  process.exit(2);
}
main(specFile, resultFile).catch((err: unknown) => {
  process.stderr.write(`load generator failed: ${String(err)}\n`);
  process.exit(1);
});
