/**
 * The admission rows of `make bench`, each on a fresh one-process service whose
 * predictor calls the slow fake upstream (2 s):
 * - the shed burst: `shedBurst` requests at once with one key on a cold key cache. Every
 *   request must be answered 201 or shed 503 with Retry-After, none 500; reported: the
 *   p99 time to a shed answer, and the `api_keys` lookups the burst cost (the service's
 *   api_key_lookups_total, read before and after; target 1 per key).
 * - open-loop arrivals at a fixed rate: the service's own overhead per 201, read from
 *   each response's Server-Timing, p50/p99 against the targets. The service has the
 *   sockets the rate needs (rate × upstream delay, with half as much again to spare),
 *   so the row measures overhead at a load it is provisioned for, not the socket queue.
 */
import { join } from 'node:path';
import type { ArrivalResult, ArrivalSpec } from './arrivals';
import { createAccount } from './accounts';
import type { BenchSettings } from './bench-settings';
import { logTail, startChild } from './child-process';
import { backingPids, startFakeUpstream, startService, upstreamEnv, type BenchPaths } from './servers';
import { SNAP_BODY, SNAP_PATH } from './snap-request';
import { writeFileSync, readFileSync } from 'node:fs';

export interface ShedBurstResult {
  requests: number;
  /** The service's MAX_REQUESTS_IN_FLIGHT (its default for the pool and an upstream). */
  maxInFlight: number;
  result: ArrivalResult;
  /** Lookups of the burst's one key that reached the database (api_key_lookups_total). */
  apiKeyQueries: number;
}

export interface OpenLoopResult {
  ratePerSecond: number;
  seconds: number;
  /** The service's OPENAI_MAX_SOCKETS for this row. */
  sockets: number;
  result: ArrivalResult;
}

export interface AdmissionResults {
  shedBurst: ShedBurstResult;
  openLoop: OpenLoopResult;
}

/** The default of a pool of 10 with an upstream (src/config/admission.ts), as the service computes it. */
const DEFAULT_MAX_IN_FLIGHT = 10 * 20 + 256;

export async function measureAdmission(
  paths: BenchPaths,
  settings: BenchSettings,
  backing: Record<string, string>,
  log: (line: string) => void,
  /** Runs between the two rows (a checkpoint of the database). */
  betweenRows: () => Promise<void> = async () => undefined,
): Promise<AdmissionResults> {
  const shedBurst = await withSlowService(paths, settings, backing, 'shed-burst', {}, async (service, cpuWatch) => {
    const apiKey = await createAccount(service, 'bench shed burst', settings.creditsPerAccount);
    const before = await keyLookups(service);
    log(`admission: ${settings.shedBurstRequests} requests at once, one key, cold key cache`);
    const result = await runArrivals(paths, 'shed-burst', { url: `${service.url}${SNAP_PATH}`, apiKeys: [apiKey], body: SNAP_BODY, timeoutSeconds: 60, burst: settings.shedBurstRequests, cpuWatch });
    const after = await keyLookups(service);
    return { requests: settings.shedBurstRequests, maxInFlight: DEFAULT_MAX_IN_FLIGHT, result, apiKeyQueries: after - before };
  });
  await betweenRows();
  const sockets = Math.ceil((settings.openLoopRate * settings.upstreamDelayMs * 1.5) / 1000);
  const openLoop = await withSlowService(paths, settings, backing, 'open-loop', { OPENAI_MAX_SOCKETS: String(sockets) }, async (service, cpuWatch) => {
    const apiKeys = await Promise.all(Array.from({ length: 10 }, (_, i) => createAccount(service, `bench open loop ${i}`, settings.creditsPerAccount)));
    const spec = { url: `${service.url}${SNAP_PATH}`, apiKeys, body: SNAP_BODY, timeoutSeconds: 60, cpuWatch };
    await runArrivals(paths, 'open-loop-warmup', { ...spec, ratePerSecond: settings.openLoopRate, seconds: 2 });
    log(`admission: open loop, ${settings.openLoopRate} requests/s for ${settings.openLoopSeconds} s`);
    const result = await runArrivals(paths, 'open-loop', { ...spec, ratePerSecond: settings.openLoopRate, seconds: settings.openLoopSeconds });
    return { ratePerSecond: settings.openLoopRate, seconds: settings.openLoopSeconds, sockets, result };
  });
  return { shedBurst, openLoop };
}

async function withSlowService<T>(
  paths: BenchPaths,
  settings: BenchSettings,
  backing: Record<string, string>,
  label: string,
  env: Record<string, string>,
  work: (service: Awaited<ReturnType<typeof startService>>, cpuWatch: Record<string, number>) => Promise<T>,
): Promise<T> {
  const upstream = await startFakeUpstream(paths, { delayMs: settings.upstreamDelayMs, label });
  try {
    const service = await startService(paths, { name: `service, ${label}`, env: { ...backing, WEB_CONCURRENCY: '1', ...upstreamEnv(upstream.baseURL), ...env } });
    try {
      return await work(service, { server: service.child.pid, ...backingPids(backing) });
    } finally {
      await service.stop();
    }
  } finally {
    await upstream.stop();
  }
}

let runs = 0;

async function runArrivals(paths: BenchPaths, label: string, spec: ArrivalSpec): Promise<ArrivalResult> {
  const n = ++runs;
  const specFile = join(paths.workDir, `arrivals-${n}-${label}.spec.json`);
  const resultFile = join(paths.workDir, `arrivals-${n}-${label}.result.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const child = startChild({ name: `arrivals ${label}`, args: [join(paths.root, 'dist/scripts/bench/arrivals.js'), specFile, resultFile], env: {}, logFile: join(paths.workDir, 'arrivals.log'), cwd: paths.root });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${child.name} failed (${code}):\n${logTail(child)}`);
  return JSON.parse(readFileSync(resultFile, 'utf8')) as ArrivalResult;
}

/** The service's own count of API-key lookups that reached the database (`api_key_lookups_total` in /metrics). */
async function keyLookups(service: { adminUrl: string }): Promise<number> {
  const text = await (await fetch(`${service.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('api_key_lookups_total '));
  if (!line) throw new Error('api_key_lookups_total is missing from /metrics');
  return Number(line.split(' ')[1]);
}
