/** Everything one bench run measured, and the figures derived from it. */
import type { AdmissionResults } from './admission-run';
import type { BenchSettings } from './bench-settings';
import type { ColdStartRow } from './cold-start';
import type { LoadResult } from './load-generator';
import type { Machine } from './machine';
import type { Durability } from './scratch-database';
import type { SlowUpstreamResult } from './slow-upstream-run';
import type { ThroughputRow } from './throughput';

export interface BenchResults {
  machine: Machine;
  /** How the PostgreSQL server of the run commits (durable: fsync and synchronous_commit on). */
  postgres: Durability;
  settings: BenchSettings;
  throughput: ThroughputRow[];
  /** The burst: 1,000 requests at once behind the 2 s upstream. */
  slowUpstream: SlowUpstreamResult;
  /** The same burst on the embedded predictor: what the burst costs without an upstream call. */
  embeddedBurst: SlowUpstreamResult;
  /** The capacity run: 5,000 requests in flight at once on one process. */
  capacity: SlowUpstreamResult;
  coldStarts: ColdStartRow[];
  /** The shed burst and the open-loop overhead (admission-run.ts). */
  admission: AdmissionResults;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Milliseconds of CPU a watched tree used per 2xx response of a load run; NaN when it was not watched or nothing succeeded. */
export function cpuMsPer2xx(load: LoadResult, name: string): number {
  const cores = load.cores[name];
  return cores === undefined || load.ok2xx === 0 ? NaN : (cores * load.seconds * 1000) / load.ok2xx;
}

/** The row's figures: medians over its rounds, sums of its failures. */
export function summarise(row: ThroughputRow) {
  /** Median over the rounds of a watched tree's cores; NaN when it was not watched. */
  const coresOf = (name: string) => median(row.rounds.flatMap((r) => (r.cores[name] === undefined ? [] : [r.cores[name] as number])));
  const sum = (pick: (r: ThroughputRow['rounds'][number]) => number) => row.rounds.reduce((total, r) => total + pick(r), 0);
  return {
    okPerSecond: median(row.rounds.map((r) => r.okPerSecond)),
    p50Ms: median(row.rounds.map((r) => r.p50Ms)),
    p99Ms: median(row.rounds.map((r) => r.p99Ms)),
    ok: sum((r) => r.ok2xx),
    non2xx: sum((r) => r.non2xx),
    failures: sum((r) => r.errors + r.timeouts),
    serverCores: coresOf('server'),
    serverMsPer2xx: median(row.rounds.map((r) => cpuMsPer2xx(r, 'server'))),
    postgresMsPer2xx: median(row.rounds.flatMap((r) => (r.cores['postgres'] === undefined ? [] : [cpuMsPer2xx(r, 'postgres')]))),
    machineCores: coresOf('machine'),
    postgresCores: coresOf('postgres'),
    redisCores: coresOf('redis'),
    loadCores: median(row.rounds.map((r) => r.cpuSeconds / r.seconds)),
    statusCodes: row.rounds.reduce<Record<string, number>>((all, r) => {
      for (const [code, count] of Object.entries(r.statusCodes)) all[code] = (all[code] ?? 0) + count;
      return all;
    }, {}),
  };
}

export function baselineOf(results: BenchResults): ThroughputRow {
  const row = results.throughput.find((r) => r.workers === undefined);
  if (!row) throw new Error('no baseline row');
  return row;
}

/** The service row run with WEB_CONCURRENCY=`workers` and the given predictor. */
export function serviceRow(results: BenchResults, workers: number, predictor: ThroughputRow['predictor'] = 'embedded'): ThroughputRow | undefined {
  return results.throughput.find((r) => r.workers === workers && r.predictor === predictor);
}

/** req/s of `row` over the baseline's. */
export function ratioToBaseline(results: BenchResults, row: ThroughputRow): number {
  return summarise(row).okPerSecond / summarise(baselineOf(results)).okPerSecond;
}

export const MB = 1_000_000;
