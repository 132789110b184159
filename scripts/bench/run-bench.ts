/**
 * `make bench`: the production-path targets (docs/benchmarking.md) measured in one run
 * on one machine, on the PostgreSQL DATABASE_URL names (durable under `make bench`):
 * the disk's own commit latency; the service behind a fake upstream answering after
 * 2 s (gateway overhead at 200 req/s, CPU and statements per paid call, the highest
 * fixed rate held, memory per call in flight); the packaged real model; the cold start;
 * and the embedded path against bare Express, reported. Prints the report and writes it
 * to test-output/bench/results.md (or --out FILE).
 *   scripts/with-test-services.sh node dist/scripts/bench/run-bench.js [--quick] [--app DIR] [--no-real-model] [--out FILE] [--keep]
 * --app DIR measures the service built in another checkout (e.g. a base commit's
 * worktree) with this harness. The bench works in databases of its own and drops them.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { snapshotApp, snapshotHarness } from './app-snapshot';
import { primeCompileCache } from './compile-cache';
import { benchSettings } from './bench-settings';
import type { BenchResults } from './bench-results';
import { stopAllChildren } from './child-process';
import { measureColdStarts } from './cold-start';
import { describeMachine } from './machine';
import { loadAverage } from './proc-stats';
import { measureRealModel } from './real-model';
import { renderReport } from './report';
import { createScratchDatabase, durabilityOf, measureCommitLatency } from './scratch-database';
import { measureThroughput } from './throughput';
import { measureUpstreamPath } from './upstream-path';

const ROOT = resolve(__dirname, '../../..'); // dist/scripts/bench → project root

function log(line: string): void {
  process.stdout.write(`bench: ${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

async function main(): Promise<void> {
  const settings = benchSettings(process.argv.slice(2), ROOT);
  const databaseUrl = process.env['DATABASE_URL'];
  const redisUrl = process.env['REDIS_URL'];
  if (!databaseUrl || !redisUrl) throw new Error('DATABASE_URL and REDIS_URL are not set: run it through scripts/with-test-services.sh (make bench does)');
  if (!existsSync(join(settings.appRoot, 'dist/src/app/main.js'))) throw new Error(`${settings.appRoot}/dist/src/app/main.js is missing: npm run build there first (make bench does)`);

  const workDir = mkdtempSync(join(tmpdir(), 'pps-bench-'));
  const app = snapshotApp(settings.appRoot, workDir);
  const paths = { app, bench: snapshotHarness(ROOT, workDir), workDir, compileCache: primeCompileCache(app, workDir) };
  const runId = `pps_bench_${process.pid}_${Date.now()}`;
  log(`${settings.quick ? 'quick mode; ' : ''}measuring ${settings.appRoot}; logs in ${workDir}`);
  const machine = describeMachine(settings.appRoot);
  const postgres = await durabilityOf(databaseUrl);

  const database = await createScratchDatabase(databaseUrl, runId);
  let results: BenchResults;
  try {
    const backing = { DATABASE_URL: database.url, REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: `${runId}:rl:` };
    log('commit latency');
    const commitLatency = await measureCommitLatency(database.url, settings.commitRounds);
    const upstreamPath = await measureUpstreamPath(paths, settings, backing, database, log);
    await database.checkpoint();
    const realModel = await measureRealModel(paths, ROOT, settings.realModelCalls, backing, database, log);
    const coldStarts = await measureColdStarts(paths, settings.coldStartRuns, { databaseUrl, redisUrl, runId }, log);
    await database.checkpoint();
    const throughput = await measureThroughput(paths, settings, backing, log);
    results = {
      machine,
      loadAverageAtEnd: loadAverage(),
      postgres,
      statementsCounted: database.countsStatements,
      settings,
      commitLatency,
      upstreamPath,
      realModel,
      coldStarts,
      throughput,
    };
  } finally {
    await stopAllChildren();
    await database.drop();
  }

  const report = renderReport(results);
  mkdirSync(dirname(settings.outFile), { recursive: true });
  writeFileSync(settings.outFile, report);
  process.stdout.write(`\n${report}\n`);
  log(`written to ${settings.outFile}`);
  if (!settings.keepWorkDir) rmSync(workDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the servers`);
    void stopAllChildren().finally(() => process.exit(130));
  });
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  await stopAllChildren();
  process.exit(1);
});
