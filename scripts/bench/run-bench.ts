/**
 * `make bench`: one run on one machine of the bare Express baseline and the real service
 * (PostgreSQL, Redis, embedded predictor), the slow-upstream burst, the capacity run and
 * the cold start;
 * the admission rows (shed burst, open-loop overhead); prints the report and writes it to
 * test-output/bench/results.md (or --out FILE).
 *   scripts/with-test-services.sh node dist/scripts/bench/run-bench.js [--quick] [--cpu-prof] [--out FILE] [--keep]
 * DATABASE_URL and REDIS_URL name the servers to use (with-test-services.sh provides
 * them); the bench works in databases of its own there and drops them afterwards.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { measureAdmission } from './admission-run';
import { snapshotApp } from './app-snapshot';
import { benchSettings } from './bench-settings';
import type { BenchResults } from './bench-results';
import { stopAllChildren } from './child-process';
import { measureColdStarts } from './cold-start';
import { renderProfileSummary } from './cpu-profile-summary';
import { describeMachine } from './machine';
import { renderReport } from './report';
import { createScratchDatabase, durabilityOf } from './scratch-database';
import { measureSlowUpstream } from './slow-upstream-run';
import type { BenchPaths } from './servers';
import { measureThroughput, profileDir } from './throughput';

const ROOT = resolve(__dirname, '../../..'); // dist/scripts/bench → project root

function log(line: string): void {
  process.stdout.write(`bench: ${line}\n`);
}

async function main(): Promise<void> {
  const settings = benchSettings(process.argv.slice(2), ROOT);
  const databaseUrl = process.env['DATABASE_URL'];
  const redisUrl = process.env['REDIS_URL'];
  if (!databaseUrl || !redisUrl) throw new Error('DATABASE_URL and REDIS_URL are not set: run it through scripts/with-test-services.sh (make bench does)');
  if (!existsSync(join(ROOT, 'dist/src/app/main.js'))) throw new Error('dist/src/app/main.js is missing: npm run build first (make bench does)');

  const workDir = mkdtempSync(join(tmpdir(), 'pps-bench-'));
  const paths = { root: snapshotApp(ROOT, workDir), workDir };
  const runId = `pps_bench_${process.pid}_${Date.now()}`;
  log(`${settings.quick ? 'quick mode; ' : ''}logs in ${paths.workDir}`);
  const machine = describeMachine(ROOT);
  const postgres = await durabilityOf(databaseUrl);

  const coldStarts = await measureColdStarts(paths, settings.coldStartRuns, { databaseUrl, redisUrl, runId }, log);
  const database = await createScratchDatabase(databaseUrl, runId);
  let results: BenchResults;
  try {
    const backing = { DATABASE_URL: database.url, REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: `${runId}:rl:` };
    const throughput = await measureThroughput(paths, settings, backing, log);
    // Each part starts with the writes of the parts before it on disk: a checkpoint due to them does not land in its figures.
    await database.checkpoint();
    const slowUpstream = await measureSlowUpstream(paths, settings, backing, log, {
      label: 'burst',
      requests: settings.slowRequests,
      warmupRequests: settings.slowWarmupRequests,
    });
    await database.checkpoint();
    const embeddedBurst = await measureSlowUpstream(paths, settings, backing, log, {
      label: 'embedded burst',
      requests: settings.slowRequests,
      warmupRequests: settings.slowWarmupRequests,
      embedded: true,
    });
    await database.checkpoint();
    const capacity = await measureSlowUpstream(paths, settings, backing, log, {
      label: 'capacity',
      requests: settings.capacityRequests,
      warmupRequests: settings.capacityWarmupRequests,
    });
    await database.checkpoint();
    const admission = await measureAdmission(paths, settings, backing, log, () => database.checkpoint());
    results = { machine, postgres, settings, throughput, slowUpstream, embeddedBurst, capacity, coldStarts, admission };
  } finally {
    await stopAllChildren();
    await database.drop();
  }

  const report = renderReport(results);
  mkdirSync(dirname(settings.outFile), { recursive: true });
  writeFileSync(settings.outFile, report);
  process.stdout.write(`\n${report}\n`);
  log(`written to ${settings.outFile}`);
  if (settings.cpuProfile) printProfiles(paths);
  if (!settings.keepWorkDir && !settings.cpuProfile) rmSync(paths.workDir, { recursive: true, force: true });
}

/** The throughput service's profile, then the burst's and the capacity run's (in folders of their own). */
function printProfiles(paths: BenchPaths): void {
  for (const dir of [profileDir(paths), join(profileDir(paths), 'burst'), join(profileDir(paths), 'capacity')]) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
    if (files.length === 0) log(`no CPU profile in ${dir}`);
    for (const file of files) process.stdout.write(`\n${renderProfileSummary(join(dir, file))}\n`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the servers`);
    void stopAllChildren().finally(() => process.exit(130));
  });
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await stopAllChildren();
  process.exit(1);
});
