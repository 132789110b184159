/**
 * The throughput runs: the bare baseline, the service with the embedded predictor (once
 * per WEB_CONCURRENCY value) and the service on one process with its predictor pointed
 * at a fake OpenAI-compatible upstream that answers at once (the production path, under
 * the same load as the embedded one), all started, warmed up, then loaded in interleaved
 * rounds with the same tool and settings, one server at a time.
 */
import { join } from 'node:path';
import type { BenchSettings } from './bench-settings';
import type { LoadResult } from './load-generator';
import { runLoad } from './run-load';
import { createAccounts } from './accounts';
import { backingPids, startBaseline, startFakeUpstream, startService, upstreamEnv, type BenchPaths, type FakeUpstream, type RunningService, type ServerUnderTest } from './servers';
import { SNAP_BODY, SNAP_PATH } from './snap-request';

/** The service on one process, its predictor an OpenAI-compatible upstream that answers at once. */
export const UPSTREAM_ROW = 'service, WEB_CONCURRENCY=1, upstream predictor';

export interface ThroughputRow {
  name: string;
  /** WEB_CONCURRENCY asked for; undefined for the baseline. */
  workers: number | undefined;
  /** The service's predictor; undefined for the baseline. */
  predictor: 'embedded' | 'upstream' | undefined;
  rounds: LoadResult[];
  peakBytes: number;
  processes: number;
}

/** Where `--cpu-prof` profiles go (written when the profiled process exits). */
export function profileDir(paths: BenchPaths): string {
  return join(paths.workDir, 'profiles');
}

export async function measureThroughput(
  paths: BenchPaths,
  settings: BenchSettings,
  backing: Record<string, string>,
  log: (line: string) => void,
): Promise<ThroughputRow[]> {
  const servers: Array<{ server: ServerUnderTest; workers: number | undefined; predictor: ThroughputRow['predictor'] }> = [];
  let upstream: FakeUpstream | undefined;
  try {
    servers.push({ server: await startBaseline(paths), workers: undefined, predictor: undefined });
    // One after another: they share a fresh database, and each runs the migrations.
    let admin: RunningService | undefined;
    for (const workers of settings.workerCounts) {
      const name = `service, WEB_CONCURRENCY=${workers}`;
      const profiled = settings.cpuProfile && workers === 1;
      const nodeArgs = profiled ? ['--cpu-prof', `--cpu-prof-dir=${profileDir(paths)}`] : [];
      const service = await startService(paths, { name, env: { ...backing, WEB_CONCURRENCY: String(workers) }, nodeArgs });
      servers.push({ server: service, workers, predictor: 'embedded' });
      admin ??= service;
    }
    upstream = await startFakeUpstream(paths, { delayMs: 0, label: 'throughput' });
    const nodeArgs = settings.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir(paths), 'upstream-throughput')}`] : [];
    const env = { ...backing, WEB_CONCURRENCY: '1', ...upstreamEnv(upstream.baseURL) };
    servers.push({ server: await startService(paths, { name: UPSTREAM_ROW, env, nodeArgs }), workers: 1, predictor: 'upstream' });
    if (!admin) throw new Error('no WEB_CONCURRENCY value to run the service with');
    log(`creating ${settings.accounts} accounts with ${settings.creditsPerAccount} credits each`);
    const apiKeys = await createAccounts(admin, settings.accounts, settings.creditsPerAccount);
    const watchAlso = backingPids(backing);
    const load = (server: ServerUnderTest, seconds: number) =>
      runLoad(paths, {
        url: `${server.url}${SNAP_PATH}`,
        connections: settings.connections,
        durationSeconds: seconds,
        timeoutSeconds: 10,
        apiKeys,
        body: SNAP_BODY,
        cpuWatch: { server: server.child.pid, ...watchAlso },
      });

    for (const { server } of servers) {
      log(`warm-up: ${server.name}, ${settings.warmupSeconds} s`);
      await load(server, settings.warmupSeconds);
    }
    const rows: ThroughputRow[] = servers.map(({ server, workers, predictor }) => ({ name: server.name, workers, predictor, rounds: [], peakBytes: 0, processes: 0 }));
    for (let round = 0; round < settings.rounds; round++) {
      for (let i = 0; i < servers.length; i++) {
        const index = (i + round) % servers.length;
        const { server } = servers[index] as (typeof servers)[number];
        const row = rows[index] as ThroughputRow;
        log(`round ${round + 1}/${settings.rounds}: ${server.name}, ${settings.roundSeconds} s`);
        row.rounds.push(await load(server, settings.roundSeconds));
      }
    }
    servers.forEach(({ server }, index) => {
      const row = rows[index] as ThroughputRow;
      row.peakBytes = server.monitor.peakBytes();
      row.processes = server.monitor.processCount();
    });
    return rows;
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
    await upstream?.stop();
  }
}
