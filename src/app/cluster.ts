/**
 * Cluster mode (WEB_CONCURRENCY > 1): the primary runs the migrations once, then forks
 * N workers, each running the normal server; node:cluster shares the public and the
 * admin listening sockets between them. Workers share state only through PostgreSQL
 * (credits) and Redis (the rate limit), which config.ts insists on in this mode.
 *
 * The primary's decisions (restart a worker that dies, with a growing delay; kill one
 * not ready within WORKER_READY_TIMEOUT_MS; on SIGTERM/SIGINT ask every worker to drain
 * and exit when they have exited, 0 if all exited cleanly) are worker-supervisor.ts's;
 * this file wires them to node:cluster.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config/config';
import { createDatabase, migrateToLatest } from '../data/database';
import type { Logger } from '../support/logger';
import { serveClusterMetrics } from '../metrics/cluster-metrics';
import type { ServerOptions } from './server';
import { WorkerSupervisor } from './worker-supervisor';

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
  return cluster.isWorker ? { migrate: false, metrics: 'cluster', stopAccepting: 'cluster-worker' } : {};
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

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  await migrateOnce(config);
  const supervisor = new WorkerSupervisor<Worker>({
    workers: config.webConcurrency,
    readyTimeoutMs: WORKER_READY_TIMEOUT_MS,
    shutdownAfterMs: config.timeBudget.shutdownMs + SHUTDOWN_GRACE_MS,
    fork: () => cluster.fork(),
    describe: (worker) => ({ workerId: worker.id, pid: worker.process.pid }),
    isConnected: (worker) => worker.isConnected(),
    drain: (worker) => worker.send({ type: SHUTDOWN }),
    kill: (worker, signal) => worker.process.kill(signal),
    exit: (code) => process.exit(code),
    logger,
  });
  serveClusterMetrics(() => supervisor.readyWorkers());
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage(message, READY)) supervisor.onReady(worker);
  });
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => supervisor.onExit(worker, code, signal));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!supervisor.isStopping()) logger.info({ signal }, 'shutting down: asking every worker to finish its requests');
      supervisor.stop(0);
    });
  }

  logger.info({ workers: config.webConcurrency }, 'cluster primary: migrations done, starting workers');
  supervisor.start();
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
