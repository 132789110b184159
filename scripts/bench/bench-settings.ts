/**
 * How long and how hard the bench runs. `make bench` uses the full settings (a few
 * minutes); `--quick` is the same procedure in seconds, for the test that keeps the
 * harness from rotting (its figures mean nothing).
 */
import { join } from 'node:path';

export interface BenchSettings {
  quick: boolean;
  /** Concurrent connections of the throughput runs. */
  connections: number;
  warmupSeconds: number;
  roundSeconds: number;
  /** Interleaved rounds: each round loads every server once, in a rotating order. */
  rounds: number;
  /** WEB_CONCURRENCY values of the service rows. */
  workerCounts: number[];
  accounts: number;
  creditsPerAccount: number;
  /** Concurrent requests of the slow-upstream run, all sent at once… */
  slowRequests: number;
  /** …after a warm-up burst of this many (pools filled, code warm; not measured). */
  slowWarmupRequests: number;
  upstreamDelayMs: number;
  /** Concurrent requests of the capacity run (one process, all in flight at once behind the slow upstream)… */
  capacityRequests: number;
  /** …after a warm-up burst of this many. */
  capacityWarmupRequests: number;
  coldStartRuns: number;
  /** Requests sent at once with one key on a cold key cache (the shed burst)… */
  shedBurstRequests: number;
  /** …and the open-loop row: this many new requests a second, for this long. */
  openLoopRate: number;
  openLoopSeconds: number;
  /** Where the markdown report goes. */
  outFile: string;
  /** Keep the scratch folder (logs, load results, probe files). */
  keepWorkDir: boolean;
  /** Profile the one-process service of the throughput rounds (`node --cpu-prof`) and print where its CPU went. */
  cpuProfile: boolean;
}

export function benchSettings(argv: readonly string[], root: string): BenchSettings {
  const quick = argv.includes('--quick');
  const outIndex = argv.indexOf('--out');
  const outFile = outIndex >= 0 ? argv[outIndex + 1] : undefined;
  const cpuProfile = argv.includes('--cpu-prof');
  return {
    quick,
    connections: 50,
    warmupSeconds: quick ? 1 : 5,
    roundSeconds: quick ? 1 : 10,
    rounds: quick ? 2 : 3,
    workerCounts: [1, 2],
    accounts: 100,
    creditsPerAccount: 10_000_000,
    slowRequests: quick ? 200 : 1000,
    slowWarmupRequests: quick ? 20 : 100,
    upstreamDelayMs: 2000,
    capacityRequests: quick ? 400 : 5000,
    capacityWarmupRequests: quick ? 20 : 100,
    coldStartRuns: quick ? 1 : 3,
    shedBurstRequests: quick ? 600 : 5000,
    openLoopRate: quick ? 50 : 200,
    openLoopSeconds: quick ? 3 : 60,
    // A generated report, ignored by git: the figures worth keeping go into docs/benchmarking.md with their date and commit.
    outFile: outFile ?? join(root, 'test-output/bench/results.md'),
    keepWorkDir: argv.includes('--keep'),
    cpuProfile,
  };
}
