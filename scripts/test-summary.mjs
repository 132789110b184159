#!/usr/bin/env node
// `make test`'s last step: one closing line that adds up every test runner's results.
//
// make test runs jest five times (unit, integration, llm, contract, image), Schemathesis
// twice (the public and the admin spec) and the evaluation's regression gate. Each leaves its
// results in a file: jest's JSON (`--json --outputFile=test-output/results/<tier>.json`),
// Schemathesis's JUnit report (test-output/contract/) and the gate's checks
// (test-output/results/eval-gate.json: a check passes when its target is met or, for a
// target the predictor misses, its floor is held; scripts/eval/gate.ts). This reads them
// all, prints a line for each, and ends on the plain closing line a CI reads whatever the
// language ("tests: N passed, N failed"): the last runner's own summary is jest's, which a
// reader of closing lines may not know, and Schemathesis's ends on a pytest-like rule ("=== 1 warning in 152s ===") that reads as
// "no test ran".
//
// A tier's file missing means that tier did not run: that is a failure here, as a missing
// tool is in CI (test/support/required-tool.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The folder whose test-output/ is read: the repository, or the one argument (the tests').
const root = process.argv[2] ?? join(import.meta.dirname, '..');
const JEST_TIERS = ['unit', 'integration', 'llm', 'contract', 'image'];
const JUNIT_REPORTS = {
  'schemathesis (public spec)': 'test-output/contract/schemathesis-junit.xml',
  'schemathesis (admin spec)': 'test-output/contract/schemathesis-admin-junit.xml',
};

function readOrNull(path) {
  try {
    return readFileSync(join(root, path), 'utf8');
  } catch {
    return null;
  }
}

/** jest's `--json` results: passed, failed (failed tests, or suites that failed to run) and skipped. */
function jestCounts(text) {
  const results = JSON.parse(text);
  const suitesNotRun = results.numRuntimeErrorTestSuites ?? 0;
  return {
    passed: results.numPassedTests,
    failed: results.numFailedTests + suitesNotRun,
    skipped: results.numPendingTests + results.numTodoTests,
  };
}

/** The totals of a JUnit report's root element (Schemathesis: one test case per operation). */
function junitCounts(text) {
  const root = /<testsuites?\b([^>]*)>/.exec(text)?.[1] ?? '';
  const count = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
  const failed = count('failures') + count('errors');
  const skipped = count('skipped');
  return { passed: count('tests') - failed - skipped, failed, skipped };
}

/** The evaluation gate's counts, with the targets it misses named (their floors held or not). */
function evalGateCounts(text) {
  const gate = JSON.parse(text);
  const missed = gate.targetsMissed.length === 0 ? '' : ` (targets missed, judged on their floors: ${gate.targetsMissed.join(', ')})`;
  return { passed: gate.passed, failed: gate.failed, skipped: gate.skipped, note: missed };
}

const rows = [
  ...JEST_TIERS.map((tier) => [`jest ${tier}`, `test-output/results/${tier}.json`, jestCounts]),
  ...Object.entries(JUNIT_REPORTS).map(([name, path]) => [name, path, junitCounts]),
  ['eval gate (held-out half)', 'test-output/results/eval-gate.json', evalGateCounts],
];

const total = { passed: 0, failed: 0, skipped: 0 };
let missing = 0;
for (const [name, path, countsOf] of rows) {
  const text = readOrNull(path);
  if (text === null) {
    console.log(`${name}: no results (${path} is missing: the tier did not run)`);
    missing += 1;
    continue;
  }
  const counts = countsOf(text);
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${counts.note ?? ''}`);
  for (const key of Object.keys(total)) total[key] += counts[key];
}

console.log(`tests: ${total.passed} passed, ${total.failed + missing} failed, ${total.skipped} skipped`);
process.exit(total.failed + missing === 0 && total.passed > 0 ? 0 : 1);
