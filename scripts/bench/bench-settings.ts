/**
 * How long and how hard the bench runs. `make bench` uses the full settings (about seven
 * minutes); `--quick` is the same procedure in about a minute, for the test that keeps
 * the harness from rotting (its figures mean nothing).
 */
import { join, resolve } from 'node:path';

export interface BenchSettings {
  quick: boolean;
  /** The checkout whose built service is measured (`--app DIR`; default: this one). */
  appRoot: string;
  /** The fake upstream's answer time on the production-path parts. */
  upstreamDelayMs: number;
  /** The overhead row: this many new requests a second, for this long, after `warmupSeconds` at the same rate. */
  openLoopRate: number;
  openLoopSeconds: number;
  warmupSeconds: number;
  /** The search for the highest rate held: steps of this length, at most this many, never above `searchMaxRate`. */
  searchStepSeconds: number;
  searchSteps: number;
  searchMaxRate: number;
  /** Calls in flight at once for the memory figure, after a warm-up burst of `capacityWarmup`. */
  capacityRequests: number;
  capacityWarmup: number;
  /** Single-row commits timed one after another for the disk's own commit latency. */
  commitRounds: number;
  coldStartRuns: number;
  /** Paid calls on the packaged real model, one after another (0: the part does not run). */
  realModelCalls: number;
  /** The embedded-path throughput against bare Express: connections, warm-up, interleaved rounds. */
  throughputConnections: number;
  throughputRounds: number;
  throughputRoundSeconds: number;
  outFile: string;
  /** Keep the scratch folder (every process's log, every load's result). */
  keepWorkDir: boolean;
}

export function benchSettings(argv: readonly string[], root: string): BenchSettings {
  const quick = argv.includes('--quick');
  const option = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  return {
    quick,
    appRoot: resolve(option('--app') ?? root),
    upstreamDelayMs: 2000,
    openLoopRate: quick ? 50 : 200,
    openLoopSeconds: quick ? 3 : 60,
    warmupSeconds: quick ? 1 : 5,
    searchStepSeconds: quick ? 2 : 10,
    searchSteps: quick ? 2 : 6,
    searchMaxRate: 1600,
    capacityRequests: quick ? 300 : 5000,
    capacityWarmup: quick ? 20 : 100,
    commitRounds: quick ? 20 : 300,
    coldStartRuns: quick ? 1 : 3,
    realModelCalls: quick || argv.includes('--no-real-model') ? 0 : 2,
    throughputConnections: 50,
    throughputRounds: 2,
    throughputRoundSeconds: quick ? 1 : 10,
    // A generated report, ignored by git: the figures worth keeping go into docs/benchmarking.md with their date and commit.
    outFile: option('--out') ?? join(root, 'test-output/bench/results.md'),
    keepWorkDir: argv.includes('--keep'),
  };
}
