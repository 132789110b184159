/**
 * Keeps `make bench` from rotting: runs the harness (scripts/bench/) in its --quick mode
 * against the real PostgreSQL and Redis of the integration tests, and checks only that
 * the report has every section and row. No timing is asserted: 1 s rounds on a shared
 * CI machine measure nothing. About 35 s.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { requireEnv } from '../support/test-server';

const ROOT = join(__dirname, '..', '..');
const REPORT = join(ROOT, 'test-output', 'bench', 'results.md');
/** Generous: the quick run takes about a minute on an idle machine, several on a loaded one. */
const TIMEOUT_MS = 600_000;

function runQuickBench(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/scripts/bench/run-bench.js'), '--quick', '--out', REPORT], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL'), REDIS_URL: requireEnv('REDIS_URL') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // On timeout the bench gets SIGTERM and stops the servers it started.
  const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS - 10_000);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('make bench', () => {
  test(
    'when the harness runs in quick mode, then it writes a report with every row and a verdict on every target',
    async () => {
      rmSync(REPORT, { force: true });
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'scripts/bench/tsconfig.json'], { cwd: ROOT });

      const { code, output } = await runQuickBench();

      expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
      const report = readFileSync(REPORT, 'utf8');
      for (const heading of ['## Throughput', '## Slow upstream', '## The same burst on the embedded predictor', '## Capacity', '## Admission', '## Overhead', '## Cold start', '## Targets', '## Method']) {
        expect(report).toContain(heading);
      }
      expect(report).toMatch(/^- PostgreSQL: fsync=\w+, synchronous_commit=\w+ /m);
      for (const row of [
        '| bare Express 5 + express.json() |',
        '| service, WEB_CONCURRENCY=1 |',
        '| service, WEB_CONCURRENCY=2 |',
        '| service, WEB_CONCURRENCY=1, upstream predictor |',
        '| embedded (PGlite in a fresh DATA_DIR) |',
        '| PostgreSQL + Redis (a fresh database) |',
      ]) {
        expect(report).toContain(row);
      }
      const targets = (report.split('## Targets')[1]?.split('\n## ')[0] ?? '').split('\n').filter((line) => line.startsWith('| ')).slice(2);
      expect(targets).toHaveLength(17);
      for (const target of targets) expect(target).toMatch(/ \| (met|\*\*not met\*\*) \|$/);
      expect(report).not.toMatch(/NaN|undefined|Infinity/);
    },
    TIMEOUT_MS,
  );
});
