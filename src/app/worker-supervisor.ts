/**
 * The cluster primary's decisions, apart from node:cluster (cluster.ts wires them to
 * its events), so they can be tested with fake workers and fake timers:
 * - start: fork `workers` workers; one not ready within `readyTimeoutMs` is killed
 *   (SIGKILL) and then counts as died;
 * - a worker that dies before every worker was first ready stops the cluster (exit 1):
 *   the build or the configuration is broken, restarting would only loop;
 * - a worker that dies later is replaced after `restartDelayMs(failures)`, a delay that
 *   grows while replacements keep dying before they are ready;
 * - stop: ready workers are asked to drain, starting ones are sent SIGTERM; exit 0 once
 *   all exited cleanly, 1 otherwise, and after `shutdownAfterMs` the rest are killed (exit 1).
 */
import type { Logger } from '../support/logger';

/** What the supervisor does to workers and to its own process (node:cluster in cluster.ts, fakes in tests). */
export interface SupervisorOptions<W> {
  workers: number;
  readyTimeoutMs: number;
  /** After a stop, how long workers have to exit before they are killed. */
  shutdownAfterMs: number;
  fork: () => W;
  /** The worker's fields for the log: its id and pid. */
  describe: (worker: W) => { workerId: number; pid: number | undefined };
  isConnected: (worker: W) => boolean;
  /** Asks it to finish its requests and exit. */
  drain: (worker: W) => void;
  kill: (worker: W, signal: 'SIGTERM' | 'SIGKILL') => void;
  exit: (code: 0 | 1) => void;
  logger: Pick<Logger, 'info' | 'error' | 'fatal'>;
}

/** Delay before starting a replacement, after `failures` deaths since a worker was last ready. */
export function restartDelayMs(failures: number): number {
  return Math.min(100 * 2 ** Math.max(0, failures - 1), 30_000);
}

export class WorkerSupervisor<W> {
  private readonly live = new Set<W>();
  private readonly ready = new Set<W>();
  private readonly readyTimers = new Map<W, NodeJS.Timeout>();
  private startedAll = false;
  private failuresSinceReady = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private cleanExit = true;

  constructor(private readonly options: SupervisorOptions<W>) {}

  start(): void {
    for (let i = 0; i < this.options.workers; i += 1) this.fork();
  }

  /** The workers serving now (the ones whose metrics a scrape collects). */
  readyWorkers(): W[] {
    return [...this.ready].filter((worker) => this.options.isConnected(worker));
  }

  isStopping(): boolean {
    return this.stopping;
  }

  onReady(worker: W): void {
    this.ready.add(worker);
    clearTimeout(this.readyTimers.get(worker));
    this.readyTimers.delete(worker);
    this.failuresSinceReady = 0;
    if (!this.startedAll && this.ready.size === this.options.workers) {
      this.startedAll = true;
      this.options.logger.info({ workers: this.options.workers }, 'cluster started: every worker is serving');
    }
  }

  onExit(worker: W, code: number | null, signal: string | null): void {
    this.live.delete(worker);
    clearTimeout(this.readyTimers.get(worker));
    this.readyTimers.delete(worker);
    const wasReady = this.ready.delete(worker);
    const died = { ...this.options.describe(worker), code, signal };
    if (this.stopping) {
      if (code !== 0) this.cleanExit = false;
      if (this.live.size === 0) this.options.exit(this.cleanExit ? 0 : 1);
      return;
    }
    if (!this.startedAll && !wasReady) {
      this.options.logger.fatal(died, 'a worker failed to start: stopping the cluster');
      this.stop(1);
      return;
    }
    this.failuresSinceReady += 1;
    const restartInMs = restartDelayMs(this.failuresSinceReady);
    this.options.logger.error({ ...died, restartInMs }, 'worker died unexpectedly: starting another');
    this.restartTimer = setTimeout(() => this.fork(), restartInMs);
  }

  /** Ready workers drain on request; a worker still starting has nothing to drain. */
  stop(exitCode: 0 | 1): void {
    if (this.stopping) return;
    this.stopping = true;
    if (exitCode !== 0) this.cleanExit = false;
    clearTimeout(this.restartTimer);
    if (this.live.size === 0) {
      this.options.exit(this.cleanExit ? 0 : 1);
      return;
    }
    for (const worker of this.live) {
      if (this.ready.has(worker) && this.options.isConnected(worker)) this.options.drain(worker);
      else this.options.kill(worker, 'SIGTERM');
    }
    setTimeout(() => {
      this.options.logger.error({ workers: this.live.size }, 'workers still running after the shutdown timeout: killing them');
      for (const worker of this.live) this.options.kill(worker, 'SIGKILL');
      this.options.exit(1);
    }, this.options.shutdownAfterMs).unref();
  }

  private fork(): void {
    if (this.stopping) return;
    const worker = this.options.fork();
    this.live.add(worker);
    const timer = setTimeout(() => {
      if (this.ready.has(worker)) return;
      this.options.logger.error({ ...this.options.describe(worker), readyTimeoutMs: this.options.readyTimeoutMs }, 'a worker was not ready in time: killing it');
      this.options.kill(worker, 'SIGKILL');
    }, this.options.readyTimeoutMs);
    timer.unref();
    this.readyTimers.set(worker, timer);
  }
}
