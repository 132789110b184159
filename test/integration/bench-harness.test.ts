/**
 * Keeps `make bench` from rotting: runs the harness (scripts/bench/) in its --quick mode
 * against the real PostgreSQL and Redis of the integration tests, and checks only the
 * report's shape: every section and row, a verdict on every target. No speed is
 * asserted: quick runs on a shared CI machine measure nothing, and a figure that got no
 * samples on a loaded machine prints "no samples" (test/unit/scripts/bench-report.test.ts).
 * On the Node `make bench` runs (the image's, scripts/image-node.sh), so that its services
 * start with the compile cache the bench primes as the image does. About a minute.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { imageNodeBinary } from '../support/image-node';
import { requireEnv } from '../support/test-server';

const ROOT = join(__dirname, '..', '..');
const REPORT = join(ROOT, 'test-output', 'bench', 'results.md');
const IMAGE_NODE = imageNodeBinary();
/** Generous: the quick run takes about a minute on an idle machine, several on a loaded one. */
const TIMEOUT_MS = 600_000;

function runQuickBench(): Promise<{ code: number | null; output: string }> {
  const child = spawn(IMAGE_NODE, [join(ROOT, 'dist/scripts/bench/run-bench.js'), '--quick', '--out', REPORT], {
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
    'when the harness runs in quick mode, then it writes a report with every section, every row and a verdict on every target',
    async () => {
      rmSync(REPORT, { force: true });
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'scripts/bench/tsconfig.json'], { cwd: ROOT });

      const { code, output } = await runQuickBench();

      expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
      const report = readFileSync(REPORT, 'utf8');
      const headings = report.split('\n').filter((line) => line.startsWith('## ')).map((line) => line.replace(/\d[\d,]*/g, 'N'));
      expect(headings).toEqual([
        '## Targets',
        "## The disk's own commit latency",
        '## Overhead at N req/s, upstream N s',
        '## The highest fixed rate held',
        '## Memory: N calls in flight on one process',
        '## The packaged real model',
        '## Cold start on PostgreSQL',
        '## The embedded path against bare Express (reported, no target)',
        '## Notes',
      ]);
      expect(report).toMatch(/^- PostgreSQL: fsync=\w+, synchronous_commit=\w+ /m);
      for (const row of ['| SELECT 1 |', '| INSERT, committed |', '| bare Express 5 + express.json() |', '| service, embedded predictor |']) {
        expect(report).toContain(row);
      }
      const rows = (heading: string) => (report.split(heading)[1]?.split('\n## ')[0] ?? '').split('\n').filter((line) => line.startsWith('| ')).slice(2);
      const targets = rows('## Targets');
      expect(targets).toHaveLength(9);
      for (const target of targets) expect(target).toMatch(/ \| (met|\*\*not met\*\*) \|$/);
      expect(rows('## The highest fixed rate held').length).toBeGreaterThanOrEqual(1);
      expect(report).toContain('its modules read from a compile cache primed as the image primes its own');
      expect(report).not.toMatch(/NaN|undefined|Infinity|null/);
    },
    TIMEOUT_MS,
  );
});
