/**
 * Cluster mode (WEB_CONCURRENCY > 1): the primary runs the migrations once, then forks
 * N workers, each running the normal server; node:cluster shares the public and the
 * admin listening sockets between them. Workers share state only through PostgreSQL
 * (credits) and Redis (the rate limit), which config.ts insists on in this mode.
 *
 * The primary restarts a worker that dies unexpectedly (after a delay that grows while
 * replacements keep dying before they are ready) and kills one that is not ready within
 * WORKER_READY_TIMEOUT_MS, which then counts as died, and on SIGTERM/SIGINT asks every
 * worker to drain and exits when they have exited: 0 if all exited cleanly.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config';
import { createDatabase, migrateToLatest } from '../data/database';
import type { Logger } from '../support/logger';
import { serveClusterMetrics } from '../metrics/cluster-metrics';
import type { ServerOptions } from './server';

const READY = 'pps:worker-ready';
const SHUTDOWN = 'pps:shutdown';

/** Beyond the workers' own drain (SHUTDOWN_TIMEOUT_SECONDS), before they are killed. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * A worker not serving by then is killed and counts as failed: nothing it waits on at
 * startup is unbounded (Redis has 2 s, then the limit is counted in-process), so a
 * worker this late is stuck.
 */
export const WORKER_READY_TIMEOUT_MS = 30_000;

function isMessage(value: unknown, type: string): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type;
}

/** How a worker (or a lone process) starts its server. */
export function serverOptions(): ServerOptions {
  return cluster.isWorker ? { migrate: false, metrics: 'cluster' } : {};
}

/** One-off start-up chores (the demo account) belong to a lone process or to worker 1. */
export function isFirstProcess(): boolean {
  return !cluster.isWorker || cluster.worker?.id === 1;
}

/** In a worker: tells the primary it is serving. A lone process has no one to tell. */
export function reportReady(): void {
  if (cluster.isWorker) process.send?.({ type: READY });
}

/** In a worker: `stop` runs when the primary asks it to shut down. */
export function onShutdownRequest(stop: () => void): void {
  if (cluster.isWorker) process.on('message', (message: unknown) => isMessage(message, SHUTDOWN) && stop());
}

/** Calls `onLate` unless `isReady()` by `timeoutMs` after the start, or the worker exits first. */
export function watchStartup(worker: { once(event: 'exit', listener: () => void): unknown }, isReady: () => boolean, onLate: () => void, timeoutMs = WORKER_READY_TIMEOUT_MS): void {
  const timer = setTimeout(() => {
    if (!isReady()) onLate();
  }, timeoutMs);
  timer.unref();
  worker.once('exit', () => clearTimeout(timer));
}

/** Delay before starting a replacement, after `failures` deaths since a worker was last ready. */
export function restartDelayMs(failures: number): number {
  return Math.min(100 * 2 ** Math.max(0, failures - 1), 30_000);
}

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  await migrateOnce(config);
  const live = new Set<Worker>();
  const ready = new Set<Worker>();
  let startedAll = false;
  let failuresSinceReady = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  let cleanExit = true;

  const fork = () => {
    if (stopping) return;
    const worker = cluster.fork();
    live.add(worker);
    watchStartup(worker, () => ready.has(worker), () => {
      logger.error({ workerId: worker.id, pid: worker.process.pid, readyTimeoutMs: WORKER_READY_TIMEOUT_MS }, 'a worker was not ready in time: killing it');
      worker.process.kill('SIGKILL');
    });
  };

  /** Ready workers drain on request; a worker still starting has nothing to drain. */
  const stop = (exitCode: 0 | 1) => {
    if (stopping) return;
    stopping = true;
    if (exitCode !== 0) cleanExit = false;
    clearTimeout(restartTimer);
    if (live.size === 0) process.exit(cleanExit ? 0 : 1);
    for (const worker of live) {
      if (ready.has(worker) && worker.isConnected()) worker.send({ type: SHUTDOWN });
      else worker.process.kill('SIGTERM');
    }
    setTimeout(() => {
      logger.error({ workers: live.size }, 'workers still running after the shutdown timeout: killing them');
      for (const worker of live) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000 + SHUTDOWN_GRACE_MS).unref();
  };

  serveClusterMetrics(() => [...ready].filter((worker) => worker.isConnected()));

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage(message, READY)) return;
    ready.add(worker);
    failuresSinceReady = 0;
    if (!startedAll && ready.size === config.webConcurrency) {
      startedAll = true;
      logger.info({ workers: config.webConcurrency }, 'cluster started: every worker is serving');
    }
  });

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    live.delete(worker);
    const wasReady = ready.delete(worker);
    const died = { workerId: worker.id, pid: worker.process.pid, code, signal };
    if (stopping) {
      if (code !== 0) cleanExit = false;
      if (live.size === 0) process.exit(cleanExit ? 0 : 1);
      return;
    }
    if (!startedAll && !wasReady) {
      logger.fatal(died, 'a worker failed to start: stopping the cluster');
      stop(1);
      return;
    }
    failuresSinceReady += 1;
    const restartInMs = restartDelayMs(failuresSinceReady);
    logger.error({ ...died, restartInMs }, 'worker died unexpectedly: starting another');
    restartTimer = setTimeout(fork, restartInMs);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!stopping) logger.info({ signal, workers: live.size }, 'shutting down: asking every worker to finish its requests');
      stop(0);
    });
  }

  logger.info({ workers: config.webConcurrency }, 'cluster primary: migrations done, starting workers');
  for (let i = 0; i < config.webConcurrency; i += 1) fork();
}

/** Once, before any worker starts, so workers never wait on the migration lock. */
async function migrateOnce(config: Config): Promise<void> {
  const db = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
