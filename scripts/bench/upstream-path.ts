/**
 * The production path: the service (one process, PostgreSQL, Redis) whose predictor
 * calls the fake OpenAI-compatible upstream answering after 2 s.
 * - overhead: open-loop arrivals at a fixed rate (200 a second), each 201's own time from
 *   its `Server-Timing` (total − upstream), with the service's and PostgreSQL's CPU and
 *   the statements PostgreSQL ran per paid call;
 * - the highest fixed rate held: the same at other rates, doubling from that one until a
 *   rate is not held, then halving the gap, a bounded number of steps;
 * - memory per call in flight: a fresh service in the chart's memory limit, as a pod
 *   (pod-memory-limit.ts), N requests at once all waiting on the upstream together,
 *   (peak RSS − RSS before) / N.
 */
import type { ArrivalResult } from './arrivals';
import { createAccounts } from './accounts';
import type { BenchSettings } from './bench-settings';
import { MiB, per, within, type Figure } from './figures';
import { chartNodeOptions, createMemoryLimit, POD_MEMORY_LIMIT_BYTES, type MemoryLimit } from './pod-memory-limit';
import { statusBytes } from './proc-stats';
import { runArrivals } from './run-load';
import type { ScratchDatabase } from './scratch-database';
import { backingPids, startFakeUpstream, startService, upstreamEnv, type BenchPaths, type RunningService } from './servers';
import { SNAP_BODY, SNAP_PATH } from './snap-request';

/** The overhead bound of a rate held: every request 201 and the overhead's p99 within it. */
export const HELD_P99_MS = 50;

export interface RateRun {
  rate: number;
  seconds: number;
  result: ArrivalResult;
  /** Statements the service ran in PostgreSQL during the run (pg_stat_statements). */
  statements: Figure;
}

export function created(result: ArrivalResult): number {
  return result.statusCodes['201'] ?? 0;
}

/** Every request answered 201, the generator kept the rate (within 10%), and the overhead's p99 within the bound. */
export function held(run: RateRun): boolean {
  const { result } = run;
  return created(result) === result.sent && result.sent > 0 && result.sendingSeconds <= run.seconds * 1.1 + 0.1 && within(result.overhead.p99, HELD_P99_MS);
}

/** Milliseconds of a watched process tree's CPU per 201 of the run. */
export function cpuMsPerCall(result: ArrivalResult, name: string): Figure {
  const cores = result.cores[name];
  return per(cores === undefined ? undefined : cores * result.seconds * 1000, created(result));
}

export interface UpstreamPathResults {
  /** The overhead row, at settings.openLoopRate. */
  overhead: RateRun;
  /** The steps of the search, in the order run (the overhead row first). */
  search: RateRun[];
  /** The highest rate held; undefined when none was. */
  highestHeld: Figure;
  memory: MemoryInFlight;
}

export interface MemoryInFlight {
  requests: number;
  result: ArrivalResult;
  rssBeforeBytes: Figure;
  peakBytes: Figure;
  /** The memory limit the service ran in (the chart's, as a pod), or why it ran without one. */
  confinement: { limitBytes: number } | { unconfined: string };
}

export async function measureUpstreamPath(
  paths: BenchPaths,
  settings: BenchSettings,
  backing: Record<string, string>,
  database: ScratchDatabase,
  log: (line: string) => void,
): Promise<UpstreamPathResults> {
  const inFlight = Math.ceil((settings.searchMaxRate * settings.upstreamDelayMs * 1.5) / 1000);
  const { overhead, search } = await withSlowService(paths, settings, backing, 'open loop', inFlight, async (service, cpuWatch) => {
    const apiKeys = await createAccounts(service, 100, 10_000_000);
    const spec = { url: `${service.url}${SNAP_PATH}`, apiKeys, body: SNAP_BODY, timeoutSeconds: 60, cpuWatch };
    const atRate = async (rate: number, seconds: number): Promise<RateRun> => {
      await database.checkpoint();
      log(`open loop: ${rate} requests/s for ${seconds} s, upstream ${settings.upstreamDelayMs} ms`);
      const before = await database.statements();
      const result = await runArrivals(paths, `open-loop-${rate}`, { ...spec, ratePerSecond: rate, seconds });
      const after = await database.statements();
      return { rate, seconds, result, statements: before === undefined || after === undefined ? undefined : after - before };
    };
    log(`open loop: warm-up, ${settings.openLoopRate} requests/s for ${settings.warmupSeconds} s`);
    await runArrivals(paths, 'open-loop-warmup', { ...spec, ratePerSecond: settings.openLoopRate, seconds: settings.warmupSeconds });
    const first = await atRate(settings.openLoopRate, settings.openLoopSeconds);
    const steps = [first];
    let [lo, hi] = held(first) ? [first.rate, undefined as number | undefined] : [0, first.rate];
    while (steps.length <= settings.searchSteps) {
      const next = hi === undefined ? Math.min(lo * 2, settings.searchMaxRate) : Math.round((lo + hi) / 20) * 10;
      if (next <= lo || (hi !== undefined && next >= hi)) break;
      const run = await atRate(next, settings.searchStepSeconds);
      steps.push(run);
      if (held(run)) lo = next;
      else hi = next;
    }
    return { overhead: first, search: steps };
  });
  const highestHeld = search.filter(held).reduce<Figure>((best, run) => Math.max(best ?? 0, run.rate), undefined);
  await database.checkpoint();
  const memory = await measureMemoryInFlight(paths, settings, backing, log);
  return { overhead, search, highestHeld, memory };
}

async function measureMemoryInFlight(paths: BenchPaths, settings: BenchSettings, backing: Record<string, string>, log: (line: string) => void): Promise<MemoryInFlight> {
  const requests = settings.capacityRequests;
  const limit = createMemoryLimit(POD_MEMORY_LIMIT_BYTES, `pps-bench-${process.pid}`);
  const confinement = 'unconfined' in limit ? limit : { limitBytes: limit.limitBytes };
  log(`memory: ${'unconfined' in limit ? `no memory limit (${limit.unconfined})` : `in a memory cgroup of ${POD_MEMORY_LIMIT_BYTES / MiB} MiB, the chart's limit`}`);
  try {
    const podBacking = { ...backing, NODE_OPTIONS: chartNodeOptions(paths.bench) };
    return await withSlowService(paths, settings, podBacking, 'in flight', requests + settings.capacityWarmup, async (service) => {
      const apiKeys = await createAccounts(service, 100, 10_000_000);
      const spec = { url: `${service.url}${SNAP_PATH}`, apiKeys, body: SNAP_BODY, timeoutSeconds: 60 };
      await runArrivals(paths, 'in-flight-warmup', { ...spec, burst: settings.capacityWarmup });
      const rssBeforeBytes = statusBytes(service.child.pid, 'VmRSS');
      log(`memory: ${requests} requests at once, all waiting on the upstream together`);
      const result = await runArrivals(paths, 'in-flight', { ...spec, burst: requests });
      return { requests, result, rssBeforeBytes, peakBytes: statusBytes(service.child.pid, 'VmHWM'), confinement };
    }, 'unconfined' in limit ? undefined : limit);
  } finally {
    if (!('unconfined' in limit)) limit.remove();
  }
}

/** A fresh one-process service behind a fresh fake upstream answering after the settings' delay, provisioned for `inFlight` calls at once. */
async function withSlowService<T>(
  paths: BenchPaths,
  settings: BenchSettings,
  backing: Record<string, string>,
  label: string,
  inFlight: number,
  work: (service: RunningService, cpuWatch: Record<string, number>) => Promise<T>,
  memoryLimit?: MemoryLimit,
): Promise<T> {
  const upstream = await startFakeUpstream(paths, { delayMs: settings.upstreamDelayMs, label });
  try {
    const service = await startService(paths, { name: `service, ${label}`, env: { ...backing, ...upstreamEnv(upstream.baseURL, inFlight) }, ...(memoryLimit && { memoryLimit }) });
    try {
      return await work(service, { server: service.child.pid, upstream: upstream.child.pid, ...backingPids(backing) });
    } finally {
      await service.stop();
    }
  } finally {
    await upstream.stop();
  }
}
