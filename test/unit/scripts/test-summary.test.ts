/**
 * make test's closing line (scripts/test-summary.mjs): it adds up the results every tier
 * left in test-output/ and ends on "tests: N passed, N failed", failing when a tier failed
 * or left no results.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TIERS = ['unit', 'integration', 'llm', 'contract', 'image'];

function jestResults(passed: number, failed = 0, pending = 0): string {
  return JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: pending, numTodoTests: 0, numRuntimeErrorTestSuites: 0 });
}

function junit(tests: number, failures = 0): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<testsuites errors="0" failures="${failures}" skipped="0" tests="${tests}" time="1.0">\n</testsuites>\n`;
}

function evalGate(passed: number, failed = 0, targetsMissed: string[] = []): string {
  return JSON.stringify({ passed, failed, skipped: 0, mode: 'floors', targetsMissed });
}

function summarise(root: string): { status: number | null; lines: string[] } {
  const run = spawnSync(process.execPath, ['scripts/test-summary.mjs', root], { encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trim().split('\n') };
}

describe("make test's closing line", () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pps-test-summary-'));
    mkdirSync(join(root, 'test-output/results'), { recursive: true });
    mkdirSync(join(root, 'test-output/contract'), { recursive: true });
    TIERS.forEach((tier, i) => writeFileSync(join(root, `test-output/results/${tier}.json`), jestResults(10 * (i + 1), 0, tier === 'unit' ? 2 : 0)));
    writeFileSync(join(root, 'test-output/contract/schemathesis-junit.xml'), junit(3));
    writeFileSync(join(root, 'test-output/contract/schemathesis-admin-junit.xml'), junit(9));
    writeFileSync(join(root, 'test-output/results/eval-gate.json'), evalGate(9, 0, ['paraphrase agreement']));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('when every tier passed, then it ends on the sum of their passes, nothing failed, and exits 0', () => {
    const { status, lines } = summarise(root);

    expect(lines.at(-1)).toBe('tests: 171 passed, 0 failed, 2 skipped');
    expect(lines).toContain('jest unit: 10 passed, 0 failed, 2 skipped');
    expect(lines).toContain('eval gate (held-out half): 9 passed, 0 failed, 0 skipped (targets missed, judged on their floors: paraphrase agreement)');
    expect(lines).toContain('schemathesis (admin spec): 9 passed, 0 failed, 0 skipped');
    expect(status).toBe(0);
  });

  test('when a tier left failures, then they are counted and it exits 1', () => {
    writeFileSync(join(root, 'test-output/results/llm.json'), jestResults(28, 2));
    writeFileSync(join(root, 'test-output/contract/schemathesis-junit.xml'), junit(3, 1));
    writeFileSync(join(root, 'test-output/results/eval-gate.json'), evalGate(8, 1, ['paraphrase agreement']));

    const { status, lines } = summarise(root);

    expect(lines.at(-1)).toBe('tests: 167 passed, 4 failed, 2 skipped');
    expect(status).toBe(1);
  });

  test('when a tier left no results, then it is named, counted as a failure, and it exits 1', () => {
    rmSync(join(root, 'test-output/results/image.json'));

    const { status, lines } = summarise(root);

    expect(lines).toContain('jest image: no results (test-output/results/image.json is missing: the tier did not run)');
    expect(lines.at(-1)).toBe('tests: 121 passed, 1 failed, 2 skipped');
    expect(status).toBe(1);
  });
});
