/**
 * The embedded path against bare Express, a reported figure (no target): the baseline
 * (bare Express 5 + express.json()) and the service on one process with its embedded
 * predictor (no upstream call), PostgreSQL and Redis; `POST /api/v1/snap` over a closed
 * loop of connections (autocannon), the `x-api-key` rotating over 100 accounts; a
 * warm-up round each, then interleaved rounds, the median round reported.
 */
import { createAccounts } from './accounts';
import type { BenchSettings } from './bench-settings';
import { median, per, type Figure } from './figures';
import type { LoadResult } from './load-generator';
import { runLoad } from './run-load';
import { backingPids, startBaseline, startService, type BenchPaths, type Server } from './servers';
import { SNAP_BODY, SNAP_PATH } from './snap-request';

export interface ThroughputRow {
  name: string;
  rounds: LoadResult[];
}

export interface ThroughputSummary {
  okPerSecond: Figure;
  p50Ms: Figure;
  p99Ms: Figure;
  serverCpuMsPer2xx: Figure;
  non2xx: number;
  failures: number;
}

export function summarise(row: ThroughputRow): ThroughputSummary {
  const sum = (pick: (r: LoadResult) => number) => row.rounds.reduce((total, r) => total + pick(r), 0);
  return {
    okPerSecond: median(row.rounds.map((r) => r.okPerSecond)),
    p50Ms: median(row.rounds.map((r) => r.p50Ms)),
    p99Ms: median(row.rounds.map((r) => r.p99Ms)),
    serverCpuMsPer2xx: median(row.rounds.flatMap((r) => per((r.cores['server'] ?? NaN) * r.seconds * 1000, r.ok2xx) ?? [])),
    non2xx: sum((r) => r.non2xx),
    failures: sum((r) => r.errors + r.timeouts),
  };
}

export async function measureThroughput(paths: BenchPaths, settings: BenchSettings, backing: Record<string, string>, log: (line: string) => void): Promise<ThroughputRow[]> {
  const servers: Server[] = [];
  try {
    servers.push(await startBaseline(paths));
    const service = await startService(paths, { name: 'service, embedded predictor', env: backing });
    servers.push(service);
    const apiKeys = await createAccounts(service, 100, 10_000_000);
    const load = (server: Server, label: string) =>
      runLoad(paths, label, {
        url: `${server.url}${SNAP_PATH}`,
        connections: settings.throughputConnections,
        durationSeconds: settings.throughputRoundSeconds,
        timeoutSeconds: 10,
        apiKeys,
        body: SNAP_BODY,
        cpuWatch: { server: server.child.pid, ...backingPids(backing) },
      });
    const rows: ThroughputRow[] = servers.map((server) => ({ name: server.name, rounds: [] }));
    for (let round = 0; round <= settings.throughputRounds; round++) {
      for (let i = 0; i < servers.length; i++) {
        const index = (i + round) % servers.length;
        const server = servers[index] as Server;
        log(`throughput ${round === 0 ? 'warm-up' : `round ${round}/${settings.throughputRounds}`}: ${server.name}, ${settings.throughputRoundSeconds} s`);
        const result = await load(server, `throughput-${round}`);
        if (round > 0) (rows[index] as ThroughputRow).rounds.push(result);
      }
    }
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
