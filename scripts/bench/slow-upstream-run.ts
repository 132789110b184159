/**
 * The slow-upstream runs: the service (one process) with its predictor pointed at a fake
 * OpenAI-compatible server that answers after 2 s, and N requests sent at once over N
 * connections. The ceiling is N requests per 2 s. The event-loop delay is recorded
 * inside the server by the preloaded loop-delay probe, reset just before the burst.
 * Run twice, each on a fresh service process: the burst (1,000) and the capacity run
 * (5,000 in flight at once, for memory).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchSettings } from './bench-settings';
import { announced, sleep } from './child-process';
import { createAccounts } from './accounts';
import type { LoadResult } from './load-generator';
import type { LoopDelaySnapshot } from './loop-delay-probe';
import { acceptQueueDepths, listenOverflows, processTree, statusBytes } from './proc-stats';
import { runLoad } from './run-load';
import { backingPids, startFakeUpstream, startService, upstreamEnv, type BenchPaths } from './servers';
import { profileDir } from './throughput';
import { SNAP_BODY, SNAP_PATH } from './snap-request';

export interface SlowUpstreamResult {
  requests: number;
  warmupRequests: number;
  upstreamDelayMs: number;
  /** requests / upstream delay: what a server that adds nothing would reach. */
  ceilingPerSecond: number;
  load: LoadResult;
  /** The service's peak resident memory over its whole life (VmHWM). */
  peakBytes: number;
  /** Its resident memory just before the burst, after the warm-up. */
  rssBeforeBytes: number;
  /** The worst process's event-loop delay during the burst (one process here). */
  loopDelay: LoopDelaySnapshot;
  /** Connections the kernel dropped because a listen queue was full, during the burst (machine-wide). */
  listenOverflows: number;
  /** The deepest each listener's accept queue got during the burst (sampled every 10 ms); Node's default backlog is 511. */
  acceptQueuePeak: { service: number; upstream: number };
  /** Chat completions the fake upstream received in all (warm-up included). */
  upstreamCalls: number;
  /** When the upstream received the burst's first and last call, in ms after the burst began. */
  upstreamArrivalMs: { first: number; last: number } | undefined;
}

export async function measureSlowUpstream(
  paths: BenchPaths,
  settings: BenchSettings,
  backing: Record<string, string>,
  log: (line: string) => void,
  run: { label: string; requests: number; warmupRequests: number; /** The embedded predictor instead of the fake upstream: the same burst without an upstream call. */ embedded?: boolean },
): Promise<SlowUpstreamResult> {
  const probeDir = join(paths.workDir, `loop-delay-${run.label}`);
  mkdirSync(probeDir, { recursive: true });
  const upstream = await startFakeUpstream(paths, { delayMs: settings.upstreamDelayMs, label: run.label });
  const warmup = run.warmupRequests;
  let result: SlowUpstreamResult;
  try {
    const service = await startService(paths, {
      name: `service, slow upstream, ${run.label}`,
      loopDelayProbe: true,
      nodeArgs: settings.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir(paths), run.label)}`] : [],
      env: {
        ...backing,
        WEB_CONCURRENCY: '1',
        ...(run.embedded ? {} : upstreamEnv(upstream.baseURL)),
        // These runs measure every request served at once (CPU per 201, memory per request in flight), not shedding: the admission rows do that.
        MAX_REQUESTS_IN_FLIGHT: String(run.requests + run.warmupRequests),
        // …and every one of them in flight to the upstream at once (the default socket cap, 256, would queue them).
        OPENAI_MAX_SOCKETS: String(run.requests),
        BENCH_LOOP_DELAY_DIR: probeDir,
      },
    });
    try {
      const apiKeys = await createAccounts(service, settings.accounts, settings.creditsPerAccount);
      const cpuWatch = { server: service.child.pid, upstream: upstream.child.pid, ...backingPids(backing) };
      const burst = (connections: number) =>
        runLoad(paths, { url: `${service.url}${SNAP_PATH}`, connections, amount: connections, timeoutSeconds: 30, apiKeys, body: SNAP_BODY, cpuWatch });
      log(`slow upstream, ${run.label}: warm-up, ${warmup} requests at once`);
      await burst(warmup);
      signalTree(service.child.pid); // the probe starts afresh: startup and warm-up are not measured
      await sleep(100);
      const overflowsBefore = listenOverflows();
      const rssBeforeBytes = statusBytes(service.child.pid, 'VmRSS') ?? 0;
      log(`slow upstream, ${run.label}: ${run.requests} requests at once, upstream answers after ${settings.upstreamDelayMs} ms`);
      const ports = { service: Number(new URL(service.url).port), upstream: Number(new URL(upstream.baseURL).port) };
      const acceptQueuePeak = { service: 0, upstream: 0 };
      const sampler = setInterval(() => {
        const depths = acceptQueueDepths([ports.service, ports.upstream]);
        acceptQueuePeak.service = Math.max(acceptQueuePeak.service, depths.get(ports.service) ?? 0);
        acceptQueuePeak.upstream = Math.max(acceptQueuePeak.upstream, depths.get(ports.upstream) ?? 0);
      }, 10);
      const load = await burst(run.requests).finally(() => clearInterval(sampler));
      signalTree(service.child.pid);
      const loopDelay = await burstSnapshot(probeDir);
      const overflows = listenOverflows() - overflowsBefore;
      result = {
        requests: run.requests,
        warmupRequests: warmup,
        upstreamDelayMs: settings.upstreamDelayMs,
        ceilingPerSecond: run.requests / (settings.upstreamDelayMs / 1000),
        load,
        peakBytes: service.monitor.peakBytes(),
        rssBeforeBytes,
        loopDelay,
        listenOverflows: overflows,
        acceptQueuePeak,
        upstreamCalls: 0,
        upstreamArrivalMs: undefined,
      };
    } finally {
      await service.stop();
    }
  } finally {
    await upstream.stop();
  }
  const { requests, arrivals, maxInFlight } = await announced<{ requests: number; arrivals: number[]; maxInFlight: number }>(upstream.child, 'requests', 1000);
  log(`slow upstream, ${run.label}: the upstream answered at most ${maxInFlight} calls at once (OPENAI_MAX_SOCKETS bounds the sockets)`);
  const burst = arrivals.slice(warmup, warmup + result.requests);
  const first = burst[0];
  const last = burst[burst.length - 1];
  const start = result.load.startedAtMs;
  const upstreamArrivalMs = first === undefined || last === undefined ? undefined : { first: first - start, last: last - start };
  return { ...result, upstreamCalls: requests, upstreamArrivalMs };
}

function signalTree(pid: number): void {
  for (const each of processTree(pid)) process.kill(each, 'SIGUSR2');
}

/**
 * Per process, the second 'signal' snapshot covers the burst; the worst p99 of them. A
 * server whose event loop is still busy writes it late: waited for up to 15 s.
 */
async function burstSnapshot(probeDir: string): Promise<LoopDelaySnapshot> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const snapshots = readdirSync(probeDir).flatMap((file) => {
      const lines = readFileSync(join(probeDir, file), 'utf8').trim().split('\n');
      const signalled = lines.map((line) => JSON.parse(line) as LoopDelaySnapshot).filter((s) => s.reason === 'signal');
      return signalled.slice(1, 2);
    });
    const worst = snapshots.sort((a, b) => b.p99Ms - a.p99Ms)[0];
    if (worst) return worst;
    if (Date.now() > deadline) throw new Error(`the loop-delay probe wrote no snapshot of the burst in ${probeDir}`);
    await sleep(100);
  }
}
