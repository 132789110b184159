/**
 * The load generator of the production-path parts, in a process of its own: either a
 * burst (`burst` requests sent at once, each on its own connection) or open-loop arrivals
 * (`ratePerSecond` new requests a second for `seconds`, whatever the answers: the
 * arrival rate does not slow down when the service does). Every response is recorded:
 * its status, its latency, and the service's own overhead read from its `Server-Timing`
 * (total minus upstream).
 *   node dist/scripts/bench/arrivals.js <spec.json> <result.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { percentiles, type Percentiles } from './figures';
import { openCpuWindow } from './cpu-window';
import { machineBusySeconds } from './proc-stats';
import { overheadOf } from './snap-request';

export interface ArrivalSpec {
  url: string;
  apiKeys: string[];
  body: string;
  timeoutSeconds: number;
  burst?: number;
  ratePerSecond?: number;
  seconds?: number;
  /** Process trees (name → root pid) whose CPU to measure over exactly the run. */
  cpuWatch?: Record<string, number>;
}

export interface Answer {
  status: number;
  latencyMs: number;
  /** Server-Timing total minus upstream (ms); undefined without the header. */
  overheadMs: number | undefined;
  upstream: boolean;
}

export interface ArrivalResult {
  sent: number;
  statusCodes: Record<string, number>;
  /** Connection errors and timeouts: requests without an answer. */
  errors: number;
  /** Latency of 201s, p50/p99/max (ms). */
  created: Percentiles;
  /** The service's own time per 201 (Server-Timing total − upstream), ms. */
  overhead: Percentiles;
  /** From the first request to the last answer. */
  seconds: number;
  /** From the first request to the last one sent: behind `seconds` of the spec when the generator could not keep the rate. */
  sendingSeconds: number;
  /** Cores used during the run by each watched tree, by the load generator itself, and by the whole `machine`. */
  cores: Record<string, number>;
}

function send(spec: ArrivalSpec, agent: Agent, apiKey: string): Promise<Answer | undefined> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const req = request(spec.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, timeout: spec.timeoutSeconds * 1000 }, (res) => {
      res.resume();
      res.once('end', () => {
        const timing = overheadOf(res.headers['server-timing'] as string | undefined);
        resolve({ status: res.statusCode ?? 0, latencyMs: performance.now() - startedAt, ...timing });
      });
      res.once('error', () => resolve(undefined));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end(spec.body);
  });
}

async function main(specFile: string, resultFile: string): Promise<void> {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as ArrivalSpec;
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const watched = Object.entries(spec.cpuWatch ?? {}).map(([name, pid]) => ({ name, window: openCpuWindow(pid) }));
  const [machineBefore, ownBefore] = [machineBusySeconds(), process.cpuUsage()];
  const key = (n: number) => spec.apiKeys[n % spec.apiKeys.length] ?? '';
  const startedAt = performance.now();
  const pending: Promise<Answer | undefined>[] = [];
  if (spec.burst !== undefined) {
    for (let n = 0; n < spec.burst; n += 1) pending.push(send(spec, agent, key(n)));
  } else {
    const rate = spec.ratePerSecond ?? 100;
    const total = Math.round(rate * (spec.seconds ?? 10));
    // Open loop: request n leaves at n / rate seconds after the start, on a 5 ms tick.
    await new Promise<void>((done) => {
      const tick = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1000) * rate));
        while (pending.length < due) pending.push(send(spec, agent, key(pending.length)));
        if (pending.length >= total) {
          clearInterval(tick);
          done();
        }
      }, 5);
    });
  }
  const sendingSeconds = (performance.now() - startedAt) / 1000;
  const answers = await Promise.all(pending);
  const seconds = (performance.now() - startedAt) / 1000;
  const own = process.cpuUsage(ownBefore);
  const used = Object.fromEntries([
    ...watched.map(({ name, window }) => [name, window.close() / seconds]),
    ['load generator', (own.user + own.system) / 1e6 / seconds],
    ['machine', (machineBusySeconds() - machineBefore) / seconds],
  ]);
  agent.destroy();
  const got = answers.filter((a): a is Answer => a !== undefined);
  const statusCodes: Record<string, number> = {};
  for (const answer of got) statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1;
  const created = got.filter((a) => a.status === 201);
  const result: ArrivalResult = {
    sent: pending.length,
    statusCodes,
    errors: answers.length - got.length,
    created: percentiles(created.map((a) => a.latencyMs)),
    overhead: percentiles(created.flatMap((a) => (a.overheadMs === undefined ? [] : [a.overheadMs]))),
    seconds,
    sendingSeconds,
    cores: used,
  };
  writeFileSync(resultFile, JSON.stringify(result));
}

const [specFile, resultFile] = process.argv.slice(2);
if (!specFile || !resultFile) {
  process.stderr.write('usage: arrivals.js <spec.json> <result.json>\n');
  process.exit(2);
}
main(specFile, resultFile).catch((err: unknown) => {
  process.stderr.write(`arrivals failed: ${String(err)}\n`);
  process.exit(1);
});
